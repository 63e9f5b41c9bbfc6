import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

export default function PersonalMessageOnline() {
  return (
    <>
      <p>
        Online shopping made gifting easy and made it a little colder. The parcel arrives on time, beautifully
        packed, with a printed slip that says “Happy birthday! From: Alex”. The thought is there; your voice is not.
      </p>
      <p>
        You can change that for any gift, from any shop, without the shop doing anything special. Here is how.
      </p>

      <h2>Option 1: a note in the parcel</h2>
      <p>
        Many shops offer a gift note at checkout. It is free and better than nothing, but it is limited to a few
        lines, printed in a standard font, and it reads like every other gift note. If that is all you have time for,
        write one specific memory rather than a generic wish: “Remember the rain in Lisbon?” beats “Have a great day!”.
      </p>

      <h2>Option 2: send your message separately</h2>
      <p>
        A video in a chat app arrives before the parcel or after it, never with it. The moment of opening and the
        moment of hearing from you are split, and the message gets buried under the day’s other notifications.
      </p>

      <h2>Option 3: attach your message to the gift itself</h2>
      <p>
        With GiftLens the gift becomes the way in. Your recipient unwraps the present and photographs it, and your
        message plays right then, in front of the thing you chose for them. It takes about three minutes:
      </p>
      <ol>
        <li>
          <strong>Photograph the gift before you send it</strong>, unwrapped, as your recipient will hold it: they
          remove the wrapping before they photograph it. If the shop ships directly, use the shop’s photo of the
          product itself. The side with the most print, or a card or tag that goes inside, makes recognition more
          reliable.
        </li>
        <li>
          <strong>Record your message.</strong> Film a video or a voice note in the browser, or upload one. Thirty
          seconds is plenty.
        </li>
        <li>
          <strong>Choose how long it should live.</strong> A day for a quick surprise, a month, or for ever as a
          keepsake.
        </li>
        <li>
          <strong>Time the link with the parcel.</strong> Schedule the gift link to arrive by e-mail on delivery day,
          or share it yourself when the courier confirms.
        </li>
      </ol>
      <p>
        Your recipient needs no app: the camera opens in their phone browser. If they cannot find the link, they can
        enter their e-mail address on the <Link to={paths.scan.href()}>Scan Gift</Link> page.
      </p>

      <h2>Tips for a message that lands</h2>
      <ul>
        <li>Record somewhere quiet, facing a window for soft light.</li>
        <li>Start with their name — it is the fastest way to make a recording feel personal.</li>
        <li>Say why you chose this gift. That is the part no shop can print.</li>
        <li>End with something for later: a plan, a promise, an inside joke.</li>
      </ul>
      <p>
        Stuck for words? Our guide on <Link to={paths.blogArticle.href('what-to-say-in-a-gift-message')}>what to
        say in a gift message</Link> has a simple structure and examples. Or just{' '}
        <Link to={paths.send.href()}>start your gift</Link> and say what comes to mind — it is usually the right thing.
      </p>
    </>
  );
}
