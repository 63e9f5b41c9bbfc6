import type { RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';

/**
 * The sender journey (features sender-auth, sender-wizard, message-upload, checkout, payment, share, my-gifts), each screen loaded on
 * demand: none of it is needed on the landing page.
 */
export const senderRoutes: RouteObject[] = [
  {
    path: paths.send.pattern,
    lazy: () => import('./routes/send-route.tsx').then((m) => ({ Component: m.SendRoute })),
  },
  {
    path: paths.message.pattern,
    lazy: () => import('./routes/message-route.tsx').then((m) => ({ Component: m.MessageRoute })),
  },
  {
    path: paths.checkout.pattern,
    lazy: () => import('./routes/checkout-route.tsx').then((m) => ({ Component: m.CheckoutRoute })),
  },
  {
    path: paths.addScans.pattern,
    lazy: () => import('./routes/add-scans-route.tsx').then((m) => ({ Component: m.AddScansRoute })),
  },
  {
    path: paths.paymentSuccess.pattern,
    lazy: () =>
      import('./routes/payment-success-route.tsx').then((m) => ({ Component: m.PaymentSuccessRoute })),
  },
  {
    path: paths.stripeReturn.pattern,
    lazy: () => import('./routes/payment-success-route.tsx').then((m) => ({ Component: m.StripeReturnRoute })),
  },
  {
    // A return URL with segments missing still lands here, so it can show the error state instead of home.
    path: '/payment-success/:giftId?/:orderId?/:paymentId?/:signature?',
    lazy: () =>
      import('./routes/payment-success-route.tsx').then((m) => ({ Component: m.PaymentSuccessRoute })),
  },
  {
    path: paths.share.pattern,
    lazy: () => import('./routes/share-route.tsx').then((m) => ({ Component: m.ShareRoute })),
  },
  {
    // A group gift's contributor (features group-gift and message-upload's recorder): no account, their link.
    path: paths.contribute.pattern,
    lazy: () => import('./routes/contribute-route.tsx').then((m) => ({ Component: m.ContributeRoute })),
  },
  {
    // A shop's buyer (features record-link and message-upload's recorder): no account, the record link.
    path: paths.record.pattern,
    lazy: () => import('./routes/record-route.tsx').then((m) => ({ Component: m.RecordRoute })),
  },
  {
    // The sender's own place (features my-gifts and sender-auth).
    path: paths.myGifts.pattern,
    lazy: () => import('./routes/my-gifts-route.tsx').then((m) => ({ Component: m.MyGiftsRoute })),
  },
  {
    path: paths.replaceMessage.pattern,
    lazy: () =>
      import('./routes/replace-message-route.tsx').then((m) => ({ Component: m.ReplaceMessageRoute })),
  },
];
