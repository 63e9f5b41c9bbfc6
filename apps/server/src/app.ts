import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AdjustableClock } from './adapters/clock.ts';
import { embeddedIpCountry, type IpCountry } from './adapters/ip-country.ts';
import { createServices, type ServiceDeps } from './composition.ts';
import { loggerOptions, type LogOptions } from './lib/request-log.ts';
import { liveFrameAdmission, scanAdmission } from './modules/scans/scan-match.ts';
import { TRUST_ANY_PROXY_WARNING, trustProxyOption } from './lib/trust-proxy.ts';
import type { TrustProxy } from './config.ts';
import { apiDocsPlugin } from './plugins/api-docs.ts';
import { errorsPlugin, routerRefusal, socketRefusal } from './plugins/errors.ts';
import { healthRoutes } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { createMetrics } from './lib/metrics.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { responseHeaders } from './plugins/response-headers.ts';
import { securityPlugin } from './plugins/security.ts';
import { builtWebApp, webAppPlugin } from './plugins/web-app.ts';
import { deliveriesRoutes } from './modules/deliveries/deliveries.routes.ts';
import { demoRoutes } from './modules/demo/demo.routes.ts';
import { geoRoutes } from './modules/geo/geo.routes.ts';
import { giftsRoutes } from './modules/gifts/gifts.routes.ts';
import { groupGiftsRoutes } from './modules/group-gifts/group-gifts.routes.ts';
import { merchantsRoutes } from './modules/merchants/merchants.routes.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { messagesRoutes } from './modules/messages/messages.routes.ts';
import { giftCardRoutes } from './modules/gift-card/gift-card.routes.ts';
import { remindersRoutes } from './modules/reminders/reminders.routes.ts';
import { myGiftsRoutes } from './modules/my-gifts/my-gifts.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { plansRoutes } from './modules/plans/plans.routes.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { reactionsRoutes } from './modules/reactions/reactions.routes.ts';
import { recipientAuthRoutes } from './modules/recipient-auth/recipient-auth.routes.ts';
import { liveFramesRoutes } from './modules/scans/live-frames.routes.ts';
import { scansRoutes } from './modules/scans/scans.routes.ts';
import { senderAuthRoutes } from './modules/sender-auth/sender-auth.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { testClockRoutes } from './modules/test-clock/test-clock.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';

type Limit = { max: number; timeWindow: number };

/** The adapters (infrastructure.ts) and the HTTP settings the server is built from. */
export interface AppDeps extends Omit<ServiceDeps, 'log' | 'demoImageDirs'> {
  /** Which X-Forwarded-For entries to believe (config.ts `TrustProxy`). */
  trustProxy: TrustProxy;
  /** The built web app; served with an SPA fallback when the folder exists. */
  webDistDir: string | null;
  /** pino's level (and a stream: stdout when none), or no logging. */
  logger: LogOptions | false;
  /** Folders with the web app's public files (demo gift images); default the built web app. */
  demoImageDirs?: string[];
  /** The VAPID public key, and the hosts subscription endpoints may name (null: the browsers' push services). */
  push: { publicKey: string; allowedHosts: string[] | null };
  /** The IP-to-country table behind GET /api/geo; default the embedded one (decision 040), read on first use. */
  ipCountry?: () => IpCountry;
  /** Per-IP limit on the sign-in calls; default 30 a minute. */
  authRateLimit?: Limit;
  /** Per-client limit on every scan call (process-scan, demo scan); default 60 a minute. */
  scanRateLimit?: Limit;
  /** Per-client limit on the reaction calls; default 30 a minute. */
  reactionRateLimit?: Limit;
  /** Per-client limit on verify-payment-callback; default 30 a minute. */
  paymentRateLimit?: Limit;
  /** New gifts and added photos per sender (each photo is decoded and enrolled); default 20 in 10 minutes. */
  giftRateLimit?: Limit;
  /** Confirmed uploads per sender (each is copied and probed by ffprobe); default 30 in 10 minutes. */
  confirmRateLimit?: Limit;
  /** The staff console's calls per client (default: the sign-in limit). */
  staffRateLimit?: Limit;
  /** Group gifts: per sender for invitations, per client for the contributor's calls. */
  groupRateLimit?: Limit;
  /** The merchant API's calls per API key; default 120 a minute (decision 058). */
  merchantRateLimit?: Limit;
  /** The record link's calls per client; default 60 a minute. */
  recordRateLimit?: Limit;
  /** METRICS_TOKEN: GET /metrics with this bearer token, and every request measured (null: neither). */
  metricsToken?: string | null;
  /** TEST_CLOCK (browser tests only): `clock` itself, which `POST /api/test/clock` moves forward. */
  testClock?: AdjustableClock | null;
}

/**
 * The composition root of the HTTP server: what is built, in which order. The root's plugins (fastify-plugin: their
 * hooks, handlers and decorators hold for every route) come first, then every module's routes, each in its own
 * encapsulated context, then the web app and its 404. docs/architecture.md draws the tree.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const webDistDir = builtWebApp(deps.webDistDir);
  const headers = responseHeaders({
    webDistDir,
    razorpay: Object.values(deps.payments).some((p) => p.name === 'razorpay'),
    https: deps.secureCookies,
    mediaOrigin: deps.media.browserOrigin,
  });
  const app = Fastify({
    ...loggerOptions(deps.logger),
    clientErrorHandler: socketRefusal(headers),
    trustProxy: trustProxyOption(deps.trustProxy),
    frameworkErrors: routerRefusal(headers),
  });
  if (deps.trustProxy === true) app.log.warn(TRUST_ANY_PROXY_WARNING);

  await app.register(errorsPlugin);
  await app.register(apiDocsPlugin);
  // @fastify/cookie without its parsing hook: cookies are parsed when a call reads one (requestCookie).
  await app.register(fastifyCookie, { hook: false });
  await app.register(rateLimitPlugin, { store: deps.rateLimitStore });
  await app.register(securityPlugin, { headers, publicOrigin: deps.publicOrigin });
  // Prometheus (docs/operations.md, "Metrics and alerts"): only with a token; its onResponse hook before any module.
  const metrics = deps.metricsToken ? (deps.metrics ?? createMetrics()) : undefined;
  if (metrics && deps.metricsToken) await app.register(metricsPlugin, { metrics, token: deps.metricsToken });

  const services = createServices({
    ...deps,
    demoImageDirs: deps.demoImageDirs ?? (deps.webDistDir ? [deps.webDistDir] : []),
    log: (line) => app.log.warn(line),
    metrics,
  });
  const { requireSender, requireRecipient, grants } = services;
  const { secureCookies, recogniser } = deps;
  const authRateLimit = deps.authRateLimit ?? { max: 30, timeWindow: 60_000 };
  // Matching costs CPU even when it succeeds: every scan call (the demo's too) is limited per client.
  const scanRateLimit = deps.scanRateLimit ?? { max: 60, timeWindow: 60_000 };
  // A saturated matcher refuses scans with 503 + Retry-After before they are read or counted (scanAdmission).
  const admission = scanAdmission(recogniser);

  // The sender's calls, then the recipient's, then media, health, and the web app.
  await app.register(senderAuthRoutes, { service: services.senderAuth, requireSender, secureCookies, rateLimit: authRateLimit });
  await app.register(plansRoutes);
  await app.register(geoRoutes, { trustProxy: deps.trustProxy !== false, ipCountry: deps.ipCountry ?? embeddedIpCountry });
  await app.register(giftsRoutes, {
    service: services.gifts,
    requireSender,
    rateLimit: deps.giftRateLimit ?? { max: 20, timeWindow: 10 * 60_000 },
  });
  await app.register(uploadsRoutes, {
    service: services.uploads,
    requireSender,
    confirmRateLimit: deps.confirmRateLimit ?? { max: 30, timeWindow: 10 * 60_000 },
  });
  await app.register(paymentsRoutes, {
    service: services.payments,
    requireSender,
    testMode: Object.values(deps.payments).some((p) => p.name === 'test'),
    verifyRateLimit: deps.paymentRateLimit ?? { max: 30, timeWindow: 60_000 },
  });
  await app.register(groupGiftsRoutes, {
    service: services.groupGifts,
    requireSender,
    rateLimit: deps.groupRateLimit ?? { max: 60, timeWindow: 60_000 },
    confirmRateLimit: deps.confirmRateLimit ?? { max: 30, timeWindow: 10 * 60_000 },
  });
  await app.register(deliveriesRoutes, { service: services.deliveries, requireSender });
  await app.register(myGiftsRoutes, { service: services.myGifts, requireSender, secureCookies });
  await app.register(giftCardRoutes, { service: services.giftCard, requireSender });
  await app.register(remindersRoutes, { service: services.reminders, requireSender });
  await app.register(pushRoutes, { service: services.push, publicKey: deps.push.publicKey, requireSender });

  await app.register(recipientAuthRoutes, { service: services.recipientAuth, requireRecipient, secureCookies, rateLimit: authRateLimit });
  await app.register(scansRoutes, { service: services.scans, grants, requireRecipient, rateLimit: scanRateLimit, admission });
  // Live frames are refused while the matcher has any queue: explicit scans have priority.
  await app.register(liveFramesRoutes, { service: services.liveFrames, grants, requireRecipient, admission: liveFrameAdmission(recogniser, metrics?.liveFrameRefused) });
  await app.register(messagesRoutes, { service: services.messages, grants });
  await app.register(reactionsRoutes, {
    service: services.reactions,
    grants,
    rateLimit: deps.reactionRateLimit ?? { max: 30, timeWindow: 60_000 },
  });
  await app.register(merchantsRoutes, {
    service: services.merchants,
    giftCard: services.giftCard,
    rateLimit: deps.merchantRateLimit ?? { max: 120, timeWindow: 60_000 },
    recordRateLimit: deps.recordRateLimit ?? { max: 60, timeWindow: 60_000 },
  });
  await app.register(demoRoutes, { service: services.demo, rateLimit: scanRateLimit, admission });
  if (services.staffAuth.enabled) {
    await app.register(staffRoutes, { auth: services.staffAuth, service: services.staff, merchants: services.staffMerchants, secureCookies, rateLimit: deps.staffRateLimit ?? authRateLimit });
  }

  await app.register(mediaRoutes, { media: deps.media, clock: deps.clock, takenDown: services.gifts.isTakenDown });
  if (deps.testClock) await app.register(testClockRoutes, { clock: deps.testClock, wakeJobs: deps.wakeJobs });
  await app.register(healthRoutes, { db: deps.db, media: deps.media, mailer: deps.mailer, rateLimitStore: deps.rateLimitStore });
  await app.register(webAppPlugin, { webDistDir });
  return app;
}
