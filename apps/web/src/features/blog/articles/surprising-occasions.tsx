import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

export default function SurprisingOccasions() {
  return (
    <>
      <p>
        Birthdays, anniversaries and holidays are where most gift messages go. But some of the most treasured ones we
        have heard about were attached to quieter moments — the ones where nobody expects to hear your voice.
      </p>

      <h2>1. Get well soon</h2>
      <p>
        A hospital stay or a long recovery is lonely, and visiting hours are short. A book, a soft blanket or a box of
        snacks with a video from the family turns a care package into company. On a 30-day plan, they can replay it
        on the hard days.
      </p>

      <h2>2. A new job or a first day at school</h2>
      <p>
        Slip a small gift into a bag or a lunch box — a pen, a mug, a keyring — and record a “you have got this”
        message for the morning it matters. Children love hearing a parent’s voice at lunchtime; adults secretly do
        too.
      </p>

      <h2>3. Saying sorry</h2>
      <p>
        An apology written on a card can feel thin. Said out loud, with a gift that shows you listened, it lands
        differently. Keep it short and honest, and do not make the gift do the apologising for you.
      </p>

      <h2>4. Moving away</h2>
      <p>
        When a friend moves to another city or country, give them something for the new home — a plant, a print of
        your old street — with a message from everyone they leave behind. Record it as a group: each person one
        sentence.
      </p>

      <h2>5. Just because</h2>
      <p>
        The most surprising occasion is no occasion. A small gift on an ordinary Tuesday with a thirty-second “I was
        thinking of you” does more than any birthday present. There is even an occasion for it when you create a
        gift: “Just because”.
      </p>

      <h2>Making it work</h2>
      <ul>
        <li>Choose a plan that matches the moment: 24 hours for a quick surprise, 30 days for support through a hard time, Lifetime for a keepsake.</li>
        <li>Schedule the gift link to arrive when the moment does — the morning of the first day, the evening of the move.</li>
        <li>Let the gift carry a small detail (a tag, a sticker) so it is easy to recognise.</li>
      </ul>
      <p>
        Need more ideas? Browse our <Link to={paths.giftIdeas.href()}>gift ideas</Link>, or{' '}
        <Link to={paths.send.href()}>start a gift</Link> for a moment only you know about.
      </p>
    </>
  );
}
