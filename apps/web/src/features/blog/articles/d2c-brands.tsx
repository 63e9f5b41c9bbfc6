import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

export default function D2cBrands() {
  return (
    <>
      <p>
        For a direct-to-consumer brand, a gift order is a small miracle: a customer chose your product to represent
        their feelings for someone else, and paid you to deliver it. Then the parcel arrives with the same packing
        slip as every other order, and the moment passes.
      </p>

      <h2>The gift order is your best marketing moment</h2>
      <p>
        The person opening a gift is not your customer yet. They are meeting your brand at the happiest moment a
        parcel can have, with the trust of someone they love attached. Whatever they feel in that minute becomes what
        they feel about you.
      </p>
      <p>
        Most brands spend that minute on a discount code. The brands people talk about spend it on the relationship
        between giver and receiver.
      </p>

      <h2>Why printed gift notes fall short</h2>
      <ul>
        <li>They are limited to a few lines in a standard font.</li>
        <li>They are typed by your warehouse team, not written by the giver.</li>
        <li>They look the same in every box, so they feel like part of the packaging.</li>
      </ul>

      <h2>What a personal message adds</h2>
      <p>
        With GiftLens, a buyer records a video or voice message at checkout. The recipient photographs the box and
        hears the giver, surrounded by your brand. Nothing is printed: the packaging itself is recognised, so your
        unboxing design stays exactly as you made it.
      </p>
      <ul>
        <li><strong>Higher gift conversion</strong>: a checkout option that makes a product feel more giftable.</li>
        <li><strong>Memorable unboxing</strong>: the kind people film and share, with your brand in the frame.</li>
        <li><strong>New customers</strong>: recipients who already associate you with someone they love.</li>
        <li><strong>Privacy by design</strong>: you see how many messages were opened, never what was said.</li>
      </ul>

      <h2>Where it fits best</h2>
      <p>
        Categories where the reason behind the gift matters: jewelry and watches, fragrance, chocolate and
        gourmet food, books, personalised goods, baby and wedding gifts. If your customers already ask for gift notes,
        they will use a voice.
      </p>

      <h2>Getting started</h2>
      <p>
        We run pilots with a small number of brands each season: we check your packaging is recognisable, add the
        message step to your checkout and measure the results with you. Read more on our{' '}
        <Link to={paths.forBusiness.href()}>For Business</Link> page or{' '}
        <Link to={paths.contact.href()}>get in touch</Link>.
      </p>
    </>
  );
}
