import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { paths } from './paths.ts';
import { RootLayout } from './root-layout.tsx';

/**
 * Each feature exposes its screens; the app layer alone composes them into routes.
 * Screens outside the landing page are lazily loaded so `/` stays small.
 */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // Routes are added here by each feature's owner, e.g.
      // { path: paths.send.pattern, Component: lazy(() => import('../features/sender-wizard/components/send-page.tsx')) },
      { path: '*', element: <Navigate to={paths.home.href()} replace /> },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
