import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import { ARTICLES, formatPublished } from '../articles.ts';

const TINTS = ['from-brand-100 to-amber-50', 'from-rose-100 to-orange-50', 'from-sky-100 to-teal-50', 'from-violet-100 to-pink-50', 'from-emerald-100 to-lime-50'];

export function BlogIndexPage() {
  return (
    <ContentPage
      wide
      title="The GiftLens blog"
      eyebrow="Blog"
      description="Guides and ideas for personal gift messages: what to say, when to send one, and how brands use them."
      intro="Ideas for the words that go with your gifts — what to say, when to say it, and why it matters."
    >
      <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {ARTICLES.map((a, i) => (
          <li key={a.slug} className="group relative flex flex-col overflow-hidden rounded-3xl border border-stone-200 bg-white transition hover:shadow-lg">
            <div className={`h-28 bg-gradient-to-br ${TINTS[i % TINTS.length]}`} aria-hidden="true" />
            <div className="flex flex-1 flex-col p-6">
              <p className="text-sm font-semibold text-brand-600">{a.tag}</p>
              <h2 className="mt-2 text-xl leading-snug font-bold text-stone-900">
                <Link to={paths.blogArticle.href(a.slug)} className="after:absolute after:inset-0 focus-visible:outline-none group-focus-within:underline">
                  {a.title}
                </Link>
              </h2>
              <p className="mt-3 flex-1 text-[15px] leading-relaxed text-stone-700">{a.description}</p>
              <p className="mt-5 flex items-center justify-between text-sm text-stone-600">
                <span>
                  <time dateTime={a.published}>{formatPublished(a.published)}</time> · {a.readMinutes} min read
                </span>
                <ArrowRight aria-hidden className="size-5 text-brand-600 transition group-hover:translate-x-1" />
              </p>
            </div>
          </li>
        ))}
      </ul>
    </ContentPage>
  );
}
