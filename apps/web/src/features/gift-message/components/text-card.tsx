import { Quote } from 'lucide-react';

/** A written message as a card, signed by its writer (the organizer's text looks the same). */
export function TextCard({ text, from }: { text: string; from: string }) {
  return (
    <figure className="relative rounded-3xl border border-brand-100 bg-white px-6 pt-14 pb-6 shadow-sm sm:px-10 sm:pt-16 sm:pb-10">
      <Quote className="absolute top-5 left-6 size-8 text-brand-200 sm:left-10 sm:size-10" aria-hidden />
      <blockquote className="relative text-lg leading-relaxed whitespace-pre-wrap break-words text-stone-800 sm:text-xl">
        {text}
      </blockquote>
      <figcaption className="mt-6 text-right font-semibold text-brand-700">— {from}</figcaption>
    </figure>
  );
}
