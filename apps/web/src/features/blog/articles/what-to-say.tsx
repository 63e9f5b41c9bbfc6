import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

export default function WhatToSay() {
  return (
    <>
      <p>
        You press record, see your own face, and every thought leaves your head. It happens to everyone. The fix is
        not a script — scripts sound like scripts — but a simple shape to hang your words on.
      </p>

      <h2>The three-part message</h2>
      <ol>
        <li>
          <strong>Name and moment.</strong> “Hi Priya — happy thirtieth!” Saying their name first makes the recording
          feel like it was made for them alone, because it was.
        </li>
        <li>
          <strong>One specific memory or reason.</strong> Not “you are amazing”, but why: “You drove four hours to help
          me move and then assembled my bed at midnight.” Specific is what makes people cry (the good kind).
        </li>
        <li>
          <strong>Something forward.</strong> A wish, a plan or a promise: “Dinner is on me when you are back.” It
          turns the message into a beginning rather than a goodbye.
        </li>
      </ol>
      <p>Thirty to sixty seconds is the sweet spot. Longer is fine for a keepsake; shorter is fine for a laugh.</p>

      <h2>Examples by relationship</h2>
      <h3>Partner</h3>
      <p>
        “Happy anniversary, love. Five years ago you laughed at my terrible parking and I knew. This bracelet is for
        the next five — and for the parking lessons you still owe me.”
      </p>
      <h3>Parent</h3>
      <p>
        “Mum, you always said you did not need anything. So this is not a thing, it is a thank-you — for every packed
        lunch and every late-night call. I love you.”
      </p>
      <h3>Friend far away</h3>
      <p>
        “Sam! I could not be there for your birthday so I put myself in the box. Open it, put the kettle on, and call
        me when you have finished laughing at the photo inside.”
      </p>
      <h3>Colleague</h3>
      <p>
        “Congratulations on the promotion, Daniel. The whole team chipped in — here is everyone saying one word that
        describes you. Spoiler: three of us said ‘spreadsheet’.”
      </p>

      <h2>Small tricks that help</h2>
      <ul>
        <li>Look at the camera lens, not your face on the screen.</li>
        <li>Hold the gift in the shot for a moment. It links your words to the object.</li>
        <li>Record twice and keep the second take — you will be warmer.</li>
        <li>Not a camera person? A voice message is just as moving, and easier to do.</li>
        <li>Get others involved: a group message, each person adding one sentence, is a joy to receive.</li>
      </ul>

      <h2>What to avoid</h2>
      <ul>
        <li>Reading the gift’s price or specs out loud.</li>
        <li>Inside jokes that need a five-minute explanation.</li>
        <li>Anything you would not want them to replay in front of family.</li>
      </ul>
      <p>
        Now you know what to say, <Link to={paths.send.href()}>record it</Link> — or get inspired by{' '}
        <Link to={paths.blogArticle.href('5-surprising-occasions-for-a-personalized-message')}>five occasions you
        might not have thought of</Link>.
      </p>
    </>
  );
}
