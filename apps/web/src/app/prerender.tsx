import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from './providers.tsx';
import { RootLayout } from './root-layout.tsx';
import { siteRoutes } from './site-routes.tsx';

async function renderOnce(): Promise<string> {
  const routes: RouteObject[] = [{ element: <RootLayout />, children: siteRoutes.filter((r) => r.index) }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`Prerendering / answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerender(
    <AppProviders>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
    // Large boundaries would otherwise be outlined behind inline reveal scripts; we want plain markup.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

/**
 * Renders `/` (shell + landing page) to HTML at build time; vite.config.ts puts it inside #root of index.html so
 * the first paint needs no JavaScript, and main.tsx hydrates it. The first pass loads the lazily hydrated parts;
 * the second renders them in place, so the HTML is plain markup with no streaming scripts.
 */
export async function renderLandingHtml(): Promise<string> {
  await renderOnce();
  return renderOnce();
}
