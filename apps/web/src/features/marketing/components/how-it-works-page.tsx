import { ArrowRight, Camera, Lightbulb } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import { NumberedList } from '../../../components/ui/numbered-list.tsx';

const SENDER_STEPS = [
  {
    image: '/images/step-record.svg',
    title: 'Verify and choose a plan',
    text: 'Enter your e-mail and the six-digit code we send. No password. Pick Basic, Premium or Lifetime in your currency.',
  },
  {
    image: '/images/step-attach.svg',
    title: 'Describe and photograph the gift',
    text: 'Tell us who it is for and the occasion, and take a photo of the gift as it will arrive. This photo is the key to your message.',
  },
  {
    image: '/images/step-reveal.svg',
    title: 'Record, pay and share',
    text: 'Record or upload a video or voice message, pay securely, then copy the gift link or schedule it to arrive at the perfect moment. On Premium and Lifetime you can make it a group gift: invite up to 10 or 50 friends to add their own messages.',
  },
] as const;

const RECIPIENT_STEPS = [
  'Open the gift link, or go to Scan Gift and enter your e-mail address to receive a code.',
  'Place the gift in a well-lit spot on a plain background.',
  'Remove anything that hides it, such as a shipping bag or outer packaging.',
  'Centre the gift in the camera frame and hold steady — the photo is taken for you.',
  'Your message plays. On Lifetime gifts you may choose to record your reaction for the sender, or just watch.',
] as const;

export function HowItWorksPage() {
  return (
    <ContentPage
      wide
      title="How GiftLens works"
      eyebrow="How it works"
      description="How to attach a video or voice message to a physical gift with GiftLens, and how your recipient reveals it with their phone camera."
      intro="The gift itself becomes the key. You photograph it when you create the message; your recipient photographs it to open it. No codes, no apps."
    >
      <section aria-labelledby="sender-heading">
        <h2 id="sender-heading" className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
          For the sender
        </h2>
        <ol className="mt-8 grid gap-8 md:grid-cols-3">
          {SENDER_STEPS.map((step, i) => (
            <li key={step.title}>
              <img src={step.image} alt="" width={360} height={260} loading="lazy" className="h-auto w-full rounded-3xl" />
              <h3 className="mt-4 text-lg font-semibold text-stone-900">
                {i + 1}. {step.title}
              </h3>
              <p className="mt-2 text-[15px] leading-relaxed text-stone-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="recipient-heading" className="mt-16 grid gap-10 lg:grid-cols-2">
        <div>
          <h2 id="recipient-heading" className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
            For the recipient
          </h2>
          <NumberedList items={RECIPIENT_STEPS} />
        </div>
        <div className="rounded-3xl border border-stone-200 bg-white p-6 sm:p-8">
          <h2 className="flex items-center gap-2 text-xl font-semibold text-stone-900">
            <Lightbulb aria-hidden className="size-6 text-amber-600" /> How recognition works
          </h2>
          <p className="mt-3 text-[15px] leading-relaxed text-stone-700">
            When you create a gift we find hundreds of small, distinctive details in your photo — the corners of a
            pattern, the edge of a ribbon, the letters on a tag — and remember how they sit relative to each other.
            When your recipient takes a photo, we look for the same details in the same arrangement. Different light,
            angle or distance are fine; a different gift is not.
          </p>
          <p className="mt-3 text-[15px] leading-relaxed text-stone-700">
            That is why a patterned paper or a hand-written tag works better than a plain box, and why a message can
            only be opened in front of the real gift.
          </p>
          <Link
            to={paths.demo.href()}
            className="mt-6 inline-flex min-h-11 items-center gap-2 rounded-xl border border-stone-300 px-4 font-semibold text-stone-800 hover:bg-stone-50"
          >
            <Camera aria-hidden className="size-5" /> Try it with the demo gift
          </Link>
        </div>
      </section>

      <div className="mt-16 flex flex-col items-start gap-4 rounded-3xl bg-stone-900 p-8 text-white sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xl font-semibold">Ready to hide a message in your next gift?</p>
        <Link
          to={paths.send.href()}
          className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-white px-6 font-semibold text-stone-900 hover:bg-brand-50"
        >
          Get Started <ArrowRight aria-hidden className="size-5" />
        </Link>
      </div>
    </ContentPage>
  );
}
