import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from './providers.tsx';
import { RootLayout } from './root-layout.tsx';
import { siteRoutes } from './site-routes.tsx';

/**
 * Renders `/` (shell + landing page) to HTML at build time; vite.config.ts puts it inside #root of index.html so
 * the first paint needs no JavaScript. The client then renders the app over it (createRoot replaces it).
 */
export async function renderLandingHtml(): Promise<string> {
  const routes: RouteObject[] = [{ element: <RootLayout />, children: siteRoutes.filter((r) => r.index) }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`Prerendering / answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <AppProviders>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
}
