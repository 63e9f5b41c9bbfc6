import type { ReactNode } from 'react';

/**
 * The frame of a text page (legal, marketing, blog): document title and description, a header band and a
 * readable column. Children use plain elements; the `prose-content` styles below give them rhythm.
 */
export function ContentPage({
  title,
  description,
  eyebrow,
  intro,
  meta,
  children,
  wide = false,
}: {
  title: string;
  /** Sentence for search results and link previews. */
  description: string;
  eyebrow?: string;
  intro?: ReactNode;
  meta?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <article>
      <title>{`${title} · GiftLens`}</title>
      <meta name="description" content={description} />
      <header className="border-b border-stone-200 bg-gradient-to-b from-brand-50 to-white">
        <div className={`mx-auto px-4 pt-12 pb-10 sm:px-6 ${wide ? 'max-w-6xl' : 'max-w-3xl'}`}>
          {eyebrow ? <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{eyebrow}</p> : null}
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-5xl">{title}</h1>
          {intro ? <div className="mt-4 max-w-2xl text-lg leading-relaxed text-stone-700">{intro}</div> : null}
          {meta ? <div className="mt-4 text-sm text-stone-600">{meta}</div> : null}
        </div>
      </header>
      <div className={`mx-auto px-4 py-12 sm:px-6 ${wide ? 'max-w-6xl' : 'max-w-3xl'}`}>{children}</div>
    </article>
  );
}

/** Typographic rhythm for long-form text written with plain h2/h3/p/ul/ol elements. */
export const PROSE =
  'text-[17px] leading-relaxed text-stone-800 [&_a]:font-semibold [&_a]:text-brand-600 [&_a]:underline [&_a]:underline-offset-2 ' +
  '[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h2]:text-stone-900 ' +
  '[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-stone-900 [&_p]:my-4 ' +
  '[&_ul]:my-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:my-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 ' +
  '[&_strong]:font-semibold [&_strong]:text-stone-900 [&_blockquote]:my-6 [&_blockquote]:border-l-4 ' +
  '[&_blockquote]:border-brand-200 [&_blockquote]:pl-4 [&_blockquote]:italic [&_blockquote]:text-stone-700 ' +
  '[&_table]:my-6 [&_table]:w-full [&_table]:text-left [&_table]:text-[15px] [&_th]:border-b [&_th]:border-stone-300 ' +
  '[&_th]:py-2 [&_th]:pr-4 [&_td]:border-b [&_td]:border-stone-200 [&_td]:py-2 [&_td]:pr-4 [&_td]:align-top';
