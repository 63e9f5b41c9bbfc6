const STEPS = [
  {
    image: '/images/step-record.svg',
    alt: 'A phone recording a smiling sender’s video message',
    title: 'Record your message',
    text: 'Film a video or record your voice right in the browser, or upload a clip you already made. Write a note if words say it best.',
  },
  {
    image: '/images/step-attach.svg',
    alt: 'A gift framed by a camera, next to a gift link card',
    title: 'Attach it to the gift',
    text: 'Photograph the gift unwrapped, as they will hold it, choose a plan and pay. Share the gift link now, or schedule it to arrive with the parcel.',
  },
  {
    image: '/images/step-reveal.svg',
    alt: 'A phone camera framing a gift while a video message starts playing',
    title: 'They scan, it plays',
    text: 'Your recipient points their phone at the gift. We recognise it in seconds and your message plays, just for them.',
  },
] as const;

/** The section the navigation bar's "How It Works" scrolls to; the id is fixed by the layout feature. */
export function HowItWorksSection({ id }: { id: string }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-20 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-20">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">How it works</p>
        <h2 id={`${id}-heading`} className="mt-2 text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">
          Three steps from your heart to their hands
        </h2>
        <ol className="mt-10 grid gap-8 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="flex flex-col">
              <img
                src={step.image}
                alt={step.alt}
                width={360}
                height={260}
                loading="lazy"
                decoding="async"
                className="h-auto w-full rounded-3xl"
              />
              <h3 className="mt-5 flex items-center gap-3 text-xl font-semibold text-stone-900">
                <span className="flex size-8 items-center justify-center rounded-full bg-stone-900 text-sm font-bold text-white">
                  {i + 1}
                </span>
                {step.title}
              </h3>
              <p className="mt-2 text-[15px] leading-relaxed text-stone-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
