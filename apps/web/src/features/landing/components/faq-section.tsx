import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Accordion, type AccordionItem } from '../../../components/ui/accordion.tsx';

const linkClass = 'font-semibold text-brand-600 underline underline-offset-2';

/** The five questions the landing page answers. */
const QUESTIONS: readonly AccordionItem[] = [
  {
    question: 'How does GiftLens make a gift more memorable?',
    answer: (
      <p>
        A gift says you thought of someone; your voice says why. With GiftLens the gift itself becomes the doorway to
        a message only you could give — a laugh, a story, a song. Recipients tell us they replay it long after the
        box is opened.
      </p>
    ),
  },
  {
    question: 'Why is it better than a QR code?',
    answer: (
      <p>
        A QR code is a sticker on your wrapping and anyone who scans it sees the message. GiftLens recognises the
        gift itself from the photo you took, so nothing spoils the look and the message opens only in front of the
        real gift.
      </p>
    ),
  },
  {
    question: 'How can I personalise my message?',
    answer: (
      <p>
        Record a video, a voice note or write a text message; upload a clip you already love if you prefer. On
        Premium and Lifetime, make it a group gift: friends and family add their own messages, played after yours. Need
        words? Our <Link className={linkClass} to={paths.blog.href()}>blog</Link> has ideas for every occasion and
        our <Link className={linkClass} to={paths.giftIdeas.href()}>gift ideas</Link> pair well with a message.
      </p>
    ),
  },
  {
    question: 'Does my recipient need to install an app?',
    answer: (
      <p>
        No. They open the gift link (or enter their e-mail at GiftLens), allow the camera in their browser and
        photograph the gift. It works in Safari, Chrome and every modern phone browser. Want to see it first?{' '}
        <Link className={linkClass} to={paths.demo.href()}>Try the demo</Link>.
      </p>
    ),
  },
  {
    question: 'Is my message private and encrypted?',
    answer: (
      <p>
        Yes. Everything travels over encrypted (HTTPS) connections and sits in private storage. A message plays only after a
        successful scan of the gift, through a link that expires after five minutes, and we never share it. See our{' '}
        <Link className={linkClass} to={paths.privacy.href()}>privacy policy</Link> for the details.
      </p>
    ),
  },
];

export function FaqSection() {
  return (
    <section aria-labelledby="faq-heading" className="bg-stone-50">
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-20">
        <h2 id="faq-heading" className="text-center text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">
          Frequently asked questions
        </h2>
        <div className="mt-10">
          <Accordion id="landing-faq" items={QUESTIONS} />
        </div>
      </div>
    </section>
  );
}
