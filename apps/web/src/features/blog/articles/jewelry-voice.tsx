import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

export default function JewelryVoice() {
  return (
    <>
      <p>
        Jewelry is the category GiftLens senders choose most: more than a third of all messages arrive with a ring, a
        pendant, a bracelet or a watch. That is not a coincidence. Jewelry is the gift people keep the longest, and
        the one most likely to be worn on the day it was meant for.
      </p>

      <h2>Jewelry is already a story</h2>
      <p>
        Nobody buys a necklace at random. It was chosen because of a birthstone, an initial, a colour they always
        wear, a charm shaped like the place you met. The box holds the object; the reason lives in your head. A
        message lets the reason travel with it.
      </p>
      <p>
        Imagine earrings that arrive with a thirty-second video: “I matched these to the dress you wore on our first
        date.” The earrings are lovely; the sentence is what gets remembered.
      </p>

      <h2>Three moments where a voice matters most</h2>
      <h3>Proposals and anniversaries</h3>
      <p>
        A ring box opened far from you, or an anniversary spent apart, deserves more than a card. A video lets them
        see your face when they see the ring.
      </p>
      <h3>Milestones</h3>
      <p>
        A first watch at graduation, a pendant at eighteen, a bracelet for a retirement. These become heirlooms. On
        the Lifetime plan your message never expires, so it can be replayed in ten years — or passed on with the
        piece itself.
      </p>
      <h3>Family pieces</h3>
      <p>
        When you hand down grandmother’s ring, record her story while you still can. Who wore it, when, and why it
        matters. That recording will be worth more than the gold.
      </p>

      <h2>How to photograph jewelry for recognition</h2>
      <p>
        Small, shiny objects are hard to recognise on their own, so photograph the packaging instead: the box with its
        logo, the ribbon, a tag with the recipient’s name. Your recipient will scan the box before opening it, which
        is exactly the moment you want the message to play.
      </p>
      <ul>
        <li>Use soft daylight; avoid flash reflections on glossy boxes.</li>
        <li>Fill most of the frame with the box.</li>
        <li>A hand-written tag adds detail that makes the box unique.</li>
      </ul>

      <h2>Keep it, and let them keep it</h2>
      <p>
        Jewelry is forever; your message can be too. The <Link to={paths.pricing.href()}>Lifetime plan</Link> keeps it
        playable for good, allows unlimited scans and lets your recipient choose to record their reaction for you.
        Ready? <Link to={paths.send.href()}>Give your gift a voice</Link>.
      </p>
    </>
  );
}
