import { ArrowRight, Play } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** The first screen; `fromPrice` is the price list's lowest ("$1.99", or "₹29" once India is chosen). */
export function Hero({ fromPrice }: { fromPrice: string }) {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-stone-50">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-10 pb-14 sm:px-6 md:pt-16 lg:grid-cols-[1.05fr_1fr] lg:gap-14 lg:pb-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-semibold text-brand-600">
            <span className="size-2 rounded-full bg-brand-500" aria-hidden />
            Scan-to-reveal gift messages
          </p>
          <h1 className="mt-5 text-4xl leading-[1.08] font-extrabold tracking-tight text-balance text-stone-900 sm:text-5xl lg:text-6xl">
            Put your voice <span className="text-brand-600">inside</span> every gift
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-stone-700">
            Record a video or voice message and attach it to the gift you send. Your recipient photographs the gift
            with their phone and your message plays — no QR code, no app to install.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link
              to={paths.send.href()}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl bg-brand-500 px-6 text-base font-semibold text-white shadow-lg shadow-brand-700/20 transition hover:brightness-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              Get Started
              <ArrowRight aria-hidden className="size-5" />
            </Link>
            <Link
              to={paths.demo.href()}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-stone-300 bg-white px-6 text-base font-semibold text-stone-800 transition hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <Play aria-hidden className="size-5 text-brand-600" />
              Try Demo
            </Link>
          </div>
          <p className="mt-5 text-sm text-stone-600">From {fromPrice} a gift · Works in any modern phone browser</p>
        </div>
        <img
          src="/images/hero-scan.svg"
          alt="A phone camera recognising a gift, with a video message from Maya ready to play"
          width={640}
          height={560}
          fetchPriority="high"
          decoding="async"
          className="mx-auto h-auto w-full max-w-xl"
        />
      </div>
    </section>
  );
}
