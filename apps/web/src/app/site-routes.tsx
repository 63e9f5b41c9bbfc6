import type { RouteObject } from 'react-router';
import { LandingRoute } from './routes/landing-route.tsx';
import { paths } from '../config/paths.ts';
import type { RouteHandle } from './root-layout.tsx';

const fullScreen: RouteHandle = { fullScreen: true };
const noServerData: RouteHandle = { noServerData: true };

/**
 * The public site: the landing page (in the main bundle, it is the first paint) and every marketing, legal,
 * blog and demo page, each loaded on demand.
 */
export const siteRoutes: RouteObject[] = [
  { index: true, handle: noServerData, element: <LandingRoute /> },
  {
    path: paths.blog.pattern,
    lazy: () => import('../features/blog/components/blog-index-page.tsx').then((m) => ({ Component: m.BlogIndexPage })),
  },
  {
    path: paths.blogArticle.pattern,
    lazy: () => import('../features/blog/components/blog-article-page.tsx').then((m) => ({ Component: m.BlogArticlePage })),
  },
  {
    path: paths.forBusiness.pattern,
    lazy: () => import('../features/marketing/components/for-business-page.tsx').then((m) => ({ Component: m.ForBusinessPage })),
  },
  {
    path: paths.privacy.pattern,
    lazy: () => import('../features/marketing/components/privacy-page.tsx').then((m) => ({ Component: m.PrivacyPage })),
  },
  {
    path: paths.terms.pattern,
    lazy: () => import('../features/marketing/components/terms-page.tsx').then((m) => ({ Component: m.TermsPage })),
  },
  {
    path: paths.cancellationRefund.pattern,
    lazy: () =>
      import('../features/marketing/components/cancellation-refund-page.tsx').then((m) => ({
        Component: m.CancellationRefundPage,
      })),
  },
  {
    path: paths.shippingDelivery.pattern,
    lazy: () =>
      import('../features/marketing/components/shipping-delivery-page.tsx').then((m) => ({
        Component: m.ShippingDeliveryPage,
      })),
  },
  {
    path: paths.contact.pattern,
    lazy: () => import('../features/marketing/components/contact-page.tsx').then((m) => ({ Component: m.ContactPage })),
  },
  {
    path: paths.faq.pattern,
    lazy: () => import('../features/marketing/components/faq-page.tsx').then((m) => ({ Component: m.FaqPage })),
  },
  {
    path: paths.giftIdeas.pattern,
    lazy: () => import('../features/marketing/components/gift-ideas-page.tsx').then((m) => ({ Component: m.GiftIdeasPage })),
  },
  {
    path: paths.pricing.pattern,
    lazy: () => import('./routes/pricing-route.tsx').then((m) => ({ Component: m.PricingRoute })),
  },
  {
    path: paths.howItWorks.pattern,
    lazy: () => import('../features/marketing/components/how-it-works-page.tsx').then((m) => ({ Component: m.HowItWorksPage })),
  },
  {
    path: paths.demo.pattern,
    lazy: () => import('../features/demo/components/demo-page.tsx').then((m) => ({ Component: m.DemoPage })),
  },
  {
    path: paths.demoScan.pattern,
    handle: fullScreen,
    lazy: () => import('../features/demo/components/demo-scan-page.tsx').then((m) => ({ Component: m.DemoScanPage })),
  },
  {
    path: paths.demoMessage.pattern,
    lazy: () => import('../features/demo/components/demo-message-page.tsx').then((m) => ({ Component: m.DemoMessagePage })),
  },
];
