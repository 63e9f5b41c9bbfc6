import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { paths } from './paths.ts';
import { RootLayout } from './root-layout.tsx';
import { recipientRoutes } from './recipient-routes.tsx';
import { siteRoutes } from './site-routes.tsx';

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
      // Sender journey (lazy: none of it is needed on the landing page)
      { path: paths.send.pattern, lazy: () => import('./routes/send-route.tsx').then((m) => ({ Component: m.SendRoute })) },
      {
        path: paths.message.pattern,
        lazy: () => import('./routes/message-route.tsx').then((m) => ({ Component: m.MessageRoute })),
      },
      {
        path: paths.checkout.pattern,
        lazy: () => import('./routes/checkout-route.tsx').then((m) => ({ Component: m.CheckoutRoute })),
      },
      {
        path: paths.paymentSuccess.pattern,
        lazy: () => import('./routes/payment-success-route.tsx').then((m) => ({ Component: m.PaymentSuccessRoute })),
      },
      {
        // A return URL with segments missing still lands here, so it can show the error state instead of home.
        path: '/payment-success/:giftId?/:orderId?/:paymentId?/:signature?',
        lazy: () => import('./routes/payment-success-route.tsx').then((m) => ({ Component: m.PaymentSuccessRoute })),
      },
      { path: paths.share.pattern, lazy: () => import('./routes/share-route.tsx').then((m) => ({ Component: m.ShareRoute })) },
      // The public site: landing, marketing, legal, blog and demo pages (features/landing, marketing, blog, demo).
      ...siteRoutes,
      // The recipient journey: /scan, gift link, instructions, camera, message (features recipient-access … reactions).
      ...recipientRoutes,
      { path: '*', element: <Navigate to={paths.home.href()} replace /> },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
