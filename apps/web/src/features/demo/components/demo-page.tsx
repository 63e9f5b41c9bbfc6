import { Camera, Monitor, Play, Printer } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { DEFAULT_DEMO_ID, findDemo } from '../demos.ts';

/** /demo: show or print the demo gift, then scan it with the phone. No account, no payment. */
export function DemoPage() {
  const demo = findDemo(DEFAULT_DEMO_ID)!;
  const scanHref = paths.demoScan.href(demo.id);
  const scanUrl = `${window.location.host}${scanHref}`;
  return (
    <div className="bg-gradient-to-b from-brand-50 to-stone-50">
      <title>Try the demo · GiftLens</title>
      <meta name="description" content="Try GiftLens with a demo gift: show it on a screen or print it, scan it with your phone and watch the hidden message." />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-2 lg:items-center lg:py-16">
        <div className="print:hidden">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Demo</p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-stone-900 sm:text-5xl">
            Try the magic in one minute
          </h1>
          <p className="mt-4 text-lg leading-relaxed text-stone-700">
            Maya hid a birthday message for Sam inside this gift. Be Sam: photograph the gift with your phone and
            watch the message appear. No account, no payment.
          </p>
          <ol className="mt-8 space-y-5">
            <li className="flex gap-4">
              <Monitor aria-hidden className="mt-0.5 size-6 shrink-0 text-brand-600" />
              <p className="text-[15px] leading-relaxed text-stone-800">
                <strong className="font-semibold">Show the gift on another screen</strong> — this page on a laptop or
                tablet works — or print it.
              </p>
            </li>
            <li className="flex gap-4">
              <Camera aria-hidden className="mt-0.5 size-6 shrink-0 text-brand-600" />
              <p className="text-[15px] leading-relaxed text-stone-800">
                <strong className="font-semibold">On your phone, open</strong>{' '}
                <span className="rounded bg-white px-1.5 py-0.5 font-mono text-sm break-all text-stone-900">{scanUrl}</span>{' '}
                and allow the camera.
              </p>
            </li>
            <li className="flex gap-4">
              <Play aria-hidden className="mt-0.5 size-6 shrink-0 text-brand-600" />
              <p className="text-[15px] leading-relaxed text-stone-800">
                <strong className="font-semibold">Point the camera at the gift</strong> and hold steady. When we
                recognise it, the message plays.
              </p>
            </li>
          </ol>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link
              to={scanHref}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl bg-brand-500 px-6 font-semibold text-white shadow-sm hover:brightness-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <Camera aria-hidden className="size-5" /> Open the demo camera
            </Link>
            <button
              type="button"
              onClick={() => window.print()}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-stone-300 bg-white px-6 font-semibold text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <Printer aria-hidden className="size-5" /> Print the gift
            </button>
          </div>
          <p className="mt-5 text-sm text-stone-600">
            No second screen?{' '}
            <Link to={paths.demoMessage.href(demo.id)} className="font-semibold text-brand-600 underline">
              Watch the demo message
            </Link>
            .
          </p>
        </div>
        <figure className="rounded-3xl bg-white p-3 shadow-xl shadow-stone-900/10 print:shadow-none">
          <img
            src={demo.giftImage}
            alt={demo.giftAlt}
            width={1200}
            height={1200}
            className="h-auto w-full rounded-2xl"
          />
          <figcaption className="px-2 pt-3 pb-1 text-center text-sm text-stone-600">
            The demo gift. Keep it bright and fill most of the camera frame with it.
          </figcaption>
        </figure>
      </div>
    </div>
  );
}
