import { ArrowRight, BookOpen, Lightbulb } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

export function ExploreSection() {
  return (
    <section aria-labelledby="explore-heading" className="bg-white">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-20">
        <div className="overflow-hidden rounded-3xl bg-stone-900 px-6 py-12 text-center sm:px-12">
          <h2 id="explore-heading" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Make your next gift speak
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-stone-300">
            It takes about three minutes to record, attach and send. Your recipient will remember it for years.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link
              to={paths.send.href()}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl bg-white px-6 font-semibold text-stone-900 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
            >
              Get Started
              <ArrowRight aria-hidden className="size-5" />
            </Link>
          </div>
        </div>
        <div className="mt-8 grid gap-4 md:grid-cols-2">
          <Link
            to={paths.giftIdeas.href()}
            className="group flex items-center gap-4 rounded-2xl border border-stone-200 p-5 transition hover:border-brand-200 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span className="flex size-12 items-center justify-center rounded-xl bg-amber-100 text-amber-800">
              <Lightbulb aria-hidden className="size-6" />
            </span>
            <span className="flex-1">
              <span className="block font-semibold text-stone-900">Gift Ideas</span>
              <span className="block text-sm text-stone-600">Presents that shine with a message attached</span>
            </span>
            <ArrowRight aria-hidden className="size-5 text-stone-500 transition group-hover:translate-x-1" />
          </Link>
          <Link
            to={paths.blog.href()}
            className="group flex items-center gap-4 rounded-2xl border border-stone-200 p-5 transition hover:border-brand-200 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span className="flex size-12 items-center justify-center rounded-xl bg-sky-100 text-sky-800">
              <BookOpen aria-hidden className="size-6" />
            </span>
            <span className="flex-1">
              <span className="block font-semibold text-stone-900">Explore Our Blog</span>
              <span className="block text-sm text-stone-600">What to say, when to say it, and why it matters</span>
            </span>
            <ArrowRight aria-hidden className="size-5 text-stone-500 transition group-hover:translate-x-1" />
          </Link>
        </div>
      </div>
    </section>
  );
}
