import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { paths } from './paths.ts';
import { RootLayout } from './root-layout.tsx';
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
          { path: '*', element: <Navigate to={paths.home.href()} replace /> },
        ],
      },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
