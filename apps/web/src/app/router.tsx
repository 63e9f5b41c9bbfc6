import { createBrowserRouter, matchRoutes, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { RootLayout, type RouteHandle } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { recipientRoutes } from './recipient-routes.tsx';
import { senderRoutes } from './sender-routes.tsx';
import { siteRoutes } from './site-routes.tsx';

/**
 * Each feature exposes its screens; the app layer alone composes them into routes.
 * Screens outside the landing page are lazily loaded so `/` stays small.
 */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // The shell itself failing: the error screen alone.
    errorElement: <RouteError />,
    children: [
      {
        // Any screen failing (a stale chunk after a deploy, a render error): the error screen inside the shell.
        errorElement: <RouteError />,
        children: [
          // The sender journey: /send wizard, message, checkout, payment verification, share.
          ...senderRoutes,
          // The public site: landing, marketing, legal, blog and demo pages (features/landing, marketing, blog, demo).
          ...siteRoutes,
          // The recipient journey: /scan, gift link, instructions, camera, message (features recipient-access … reactions).
          ...recipientRoutes,
          {
            // The staff console (features/staff): its own header instead of the site's navigation and footer.
            path: paths.staff.pattern,
            handle: { fullScreen: true } satisfies RouteHandle,
            // The module's own `Component` export is the route's: no wrapping here, in the entry every page loads.
            lazy: () => import('./routes/staff-route.tsx'),
          },
          { path: '*', element: <Navigate to={paths.home.href()} replace /> },
        ],
      },
    ],
  },
];

/**
 * Loads the code of every lazily loaded route the first URL matches, in place, before the router is made. A router
 * made while its first screen's code is still loading starts uninitialised: it renders nothing for that first pass
 * (a "HydrateFallback", with React Router's warning on every full page load but /) and then the screen. Made
 * after, it starts initialised and renders the screen at once. A route whose code fails to load is left lazy: the
 * router loads it again and shows its error screen (a stale chunk reloads the page once, route-error.tsx).
 */
export async function loadFirstRoutes(list: RouteObject[], location: string): Promise<void> {
  const lazy = (matchRoutes(list, location) ?? []).map((m) => m.route).filter((r) => typeof r.lazy === 'function');
  await Promise.all(
    lazy.map(async (route) => {
      try {
        const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
        Object.assign(route, loaded, { lazy: undefined });
      } catch {
        // Left lazy: the router tries again and shows the route's error element.
      }
    }),
  );
}

/** The app's router, made once the first screen's code is loaded (see loadFirstRoutes). */
export async function createAppRouter(): Promise<ReturnType<typeof createBrowserRouter>> {
  await loadFirstRoutes(routes, window.location.pathname);
  return createBrowserRouter(routes);
}

export function AppRouter({ router }: { router: ReturnType<typeof createBrowserRouter> }) {
  return <RouterProvider router={router} />;
}
