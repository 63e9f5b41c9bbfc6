import { addScansPath, checkoutReturnPaths } from '@giftlens/contract/checkout-return';

/** /send?gift={giftId}: the wizard carries on with that existing gift (My Gifts' Continue on a draft). */
export const RESUME_GIFT_PARAM = 'gift';
/** /send?plan={planId}: the plan chosen on /pricing, preselected at the wizard's plan step. */
export const PLAN_PARAM = 'plan';
/** /share/{giftId}?change={deliveryId}: the share page opens that delivery's Change form (from My Gifts). */
export const CHANGE_DELIVERY_PARAM = 'change';

/** The one typed route map: links, redirects and tests all build URLs from here. */
export const paths = {
  home: { pattern: '/', href: () => '/' },
  scan: { pattern: '/scan', href: () => '/scan' },
  shareLink: { pattern: '/sharelink/:giftId', href: (giftId: string) => `/sharelink/${giftId}` },
  scanningInstructions: {
    pattern: '/scanning-instructions/:recipientId',
    href: (recipientId: string, type?: 'direct') =>
      `/scanning-instructions/${recipientId}${type ? `?type=${type}` : ''}`,
  },
  scanningCamera: {
    pattern: '/scanning-camera/:id',
    href: (id: string, type?: 'direct' | 'home') => `/scanning-camera/${id}${type ? `?type=${type}` : ''}`,
  },
  matchResult: { pattern: '/match-result/:giftId', href: (giftId: string) => `/match-result/${giftId}` },
  giftNotFound: { pattern: '/gift-not-found', href: () => '/gift-not-found' },
  /** The gift's backup code typed in (decision 039): `id` is the gift (type=direct) or the recipient id. */
  backupCode: {
    pattern: '/backup-code/:id',
    href: (id: string, type?: 'direct') => `/backup-code/${id}${type ? `?type=${type}` : ''}`,
  },
  giftNotReady: { pattern: '/gift-not-ready', href: () => '/gift-not-ready' },
  giftMessage: { pattern: '/gift-message/:giftId', href: (giftId: string) => `/gift-message/${giftId}` },
  send: {
    pattern: '/send',
    href: (resumeGiftId?: string) => (resumeGiftId ? `/send?${RESUME_GIFT_PARAM}=${resumeGiftId}` : '/send'),
    /** A new gift with this plan preselected (the pricing page's Choose). */
    withPlan: (planId: string) => `/send?${PLAN_PARAM}=${encodeURIComponent(planId)}`,
  },
  message: { pattern: '/message/:giftId', href: (giftId: string) => `/message/${giftId}` },
  checkout: { pattern: '/checkout/:giftId', href: (giftId: string) => `/checkout/${giftId}` },
  /** More scans for a paid gift (issue 40): the same checkout, for 5 scans. */
  addScans: { pattern: '/add-scans/:giftId', href: addScansPath },
  share: {
    pattern: '/share/:giftId',
    href: (giftId: string, changeDeliveryId?: string) =>
      `/share/${giftId}${changeDeliveryId ? `?${CHANGE_DELIVERY_PARAM}=${encodeURIComponent(changeDeliveryId)}` : ''}`,
  },
  myGifts: { pattern: '/my-gifts', href: () => '/my-gifts' },
  /** A group gift's contributor page: the per-person token from the e-mail, or the shared invitation link's. */
  contribute: { pattern: '/contribute/:token', href: (token: string) => `/contribute/${token}` },
  /** A shop's buyer records the message of the gift the shop sends (the merchant API's record link, decision 058). */
  record: { pattern: '/record/:token', href: (token: string) => `/record/${token}` },
  /** A paid gift's message recorded or uploaded again (until first opened); back to My Gifts afterwards. */
  replaceMessage: { pattern: '/my-gifts/:giftId/message', href: (giftId: string) => `/my-gifts/${giftId}/message` },
  paymentSuccess: {
    pattern: '/payment-success/:giftId/:orderId/:paymentId/:signature',
    href: (giftId: string, orderId: string, paymentId: string, signature: string) =>
      `/payment-success/${giftId}/${encodeURIComponent(orderId)}/${encodeURIComponent(paymentId)}/${encodeURIComponent(signature)}`,
  },
  /** The return from Stripe Checkout (USD): the server asks Stripe about this session. */
  stripeReturn: { pattern: '/payment-success/:giftId/stripe/:sessionId', href: checkoutReturnPaths.paid },
  blog: { pattern: '/blog', href: () => '/blog' },
  blogArticle: { pattern: '/blog/:slug', href: (slug: string) => `/blog/${slug}` },
  forBusiness: { pattern: '/for-business', href: () => '/for-business' },
  privacy: { pattern: '/privacy', href: () => '/privacy' },
  terms: { pattern: '/terms', href: () => '/terms' },
  cancellationRefund: { pattern: '/cancellation-refund', href: () => '/cancellation-refund' },
  shippingDelivery: { pattern: '/shipping-delivery', href: () => '/shipping-delivery' },
  contact: { pattern: '/contact', href: () => '/contact' },
  faq: { pattern: '/faq', href: () => '/faq' },
  giftIdeas: { pattern: '/gift-ideas', href: () => '/gift-ideas' },
  pricing: { pattern: '/pricing', href: () => '/pricing' },
  howItWorks: { pattern: '/how-it-works', href: () => '/how-it-works' },
  demo: { pattern: '/demo', href: () => '/demo' },
  demoScan: { pattern: '/demo/scan/:demoId', href: (demoId: string) => `/demo/scan/${demoId}` },
  demoMessage: { pattern: '/demo/message/:demoId', href: (demoId: string) => `/demo/message/${demoId}` },
  /** The staff console (issue 28): linked from nowhere on the site, never indexed. */
  staff: { pattern: '/staff', href: () => '/staff' },
} as const;
