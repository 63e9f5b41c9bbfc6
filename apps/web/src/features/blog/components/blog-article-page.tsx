import { ArrowLeft } from 'lucide-react';
import { createElement, lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage, PROSE } from '../../../components/ui/content-page.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { ARTICLES, findArticle, formatPublished } from '../articles.ts';

// One lazy component per article, created once, so each body is its own small chunk.
const BODIES = new Map<string, LazyExoticComponent<ComponentType>>(ARTICLES.map((a) => [a.slug, lazy(a.load)]));

export function BlogArticlePage() {
  const { slug } = useParams();
  const article = findArticle(slug);
  const Body = article ? BODIES.get(article.slug) : undefined;
  if (!article || !Body) return <Navigate to={paths.blog.href()} replace />;

  const more = ARTICLES.filter((a) => a.slug !== article.slug).slice(0, 2);
  return (
    <ContentPage
      title={article.title}
      eyebrow={article.tag}
      description={article.description}
      intro={article.description}
      meta={
        <>
          <time dateTime={article.published}>{formatPublished(article.published)}</time> · {article.readMinutes} min
          read
        </>
      }
    >
      <div className={PROSE}>
        <Suspense fallback={<PageSpinner label="Loading article…" />}>
          {createElement(Body)}
        </Suspense>
      </div>
      <aside aria-labelledby="more-heading" className="mt-14 border-t border-stone-200 pt-10">
        <h2 id="more-heading" className="text-xl font-bold text-stone-900">
          Keep reading
        </h2>
        <ul className="mt-4 space-y-3">
          {more.map((a) => (
            <li key={a.slug}>
              <Link to={paths.blogArticle.href(a.slug)} className="font-semibold text-brand-600 underline underline-offset-2">
                {a.title}
              </Link>
            </li>
          ))}
        </ul>
        <Link
          to={paths.blog.href()}
          className="mt-8 inline-flex min-h-11 items-center gap-2 rounded-xl border border-stone-300 px-4 font-semibold text-stone-800 hover:bg-stone-50"
        >
          <ArrowLeft aria-hidden className="size-5" /> All articles
        </Link>
      </aside>
    </ContentPage>
  );
}
