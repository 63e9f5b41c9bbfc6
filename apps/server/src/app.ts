import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { texts } from '@giftlens/contract/texts';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { sql } from 'kysely';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { existsSync } from 'node:fs';
import { BlockList, isIPv6 } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { ZodError } from 'zod';
import type { AdjustableClock, Clock } from './adapters/clock.ts';
import { embeddedIpCountry, type IpCountry } from './adapters/ip-country.ts';
import type { Mailer } from './adapters/mail.ts';
import type { MediaProcessor } from './adapters/media-processor.ts';
import type { Scratch } from './adapters/scratch.ts';
import type { MediaStorage } from './adapters/media-storage.ts';
import type { PaymentProviders } from './adapters/payments.ts';
import { type RateLimitStore, sharedOrLocalStore } from './adapters/rate-limit-store.ts';
import type { Recogniser } from './adapters/recogniser.ts';
import type { Db } from './db/database.ts';
import { AppError } from './lib/errors.ts';
import { isUnreachable } from './lib/unreachable.ts';
import { validationError } from './lib/http.ts';
import type { TrustProxy } from './config.ts';
import { loggerOptions, type LogOptions } from './lib/request-log.ts';
import { liveFrameAdmission, scanAdmission } from './modules/scans/scan-match.ts';
import { apiHelmetOptions, helmetHeaders, securityHeaders } from './lib/security-headers.ts';
import { senderGuard } from './modules/sender-auth/sender-session.ts';
import { createDeliveriesService } from './modules/deliveries/deliveries.service.ts';
import { deliveriesRoutes } from './modules/deliveries/deliveries.routes.ts';
import { geoRoutes } from './modules/geo/geo.routes.ts';
import { giftsRoutes } from './modules/gifts/gifts.routes.ts';
import { createGiftsService } from './modules/gifts/gifts.service.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { createBackupCodes } from './lib/backup-codes.ts';
import { myGiftsRoutes } from './modules/my-gifts/my-gifts.routes.ts';
import { createMyGiftsService } from './modules/my-gifts/my-gifts.service.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { createPushService, DEFAULT_PUSH_SERVICE_HOSTS } from './modules/push/push.service.ts';
import { plansRoutes } from './modules/plans/plans.routes.ts';
import { demoRoutes } from './modules/demo/demo.routes.ts';
import { createDemoService } from './modules/demo/demo.service.ts';
import { messagesRoutes } from './modules/messages/messages.routes.ts';
import { createMessagesService } from './modules/messages/messages.service.ts';
import { reactionsRoutes } from './modules/reactions/reactions.routes.ts';
import { createReactionsService } from './modules/reactions/reactions.service.ts';
import { recipientAuthRoutes } from './modules/recipient-auth/recipient-auth.routes.ts';
import { createRecipientAuthService } from './modules/recipient-auth/recipient-auth.service.ts';
import { recipientGuard } from './modules/recipient-auth/recipient-session.ts';
import { createRevealGrants } from './modules/reveal-grants/reveal-grants.ts';
import { createSlidingWindow } from './adapters/sliding-window.ts';
import { liveFramesRoutes } from './modules/scans/live-frames.routes.ts';
import { createLiveFramesService, type LiveScanLimit } from './modules/scans/live-frames.service.ts';
import { scansRoutes } from './modules/scans/scans.routes.ts';
import { createScansService, type ScanFailureLimit } from './modules/scans/scans.service.ts';
import { senderAuthRoutes } from './modules/sender-auth/sender-auth.routes.ts';
import { createSenderAuthService } from './modules/sender-auth/sender-auth.service.ts';
import { createMediaGate } from './modules/media/media-gate.ts';
import { testClockRoutes } from './modules/test-clock/test-clock.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { createUploadsService } from './modules/uploads/uploads.service.ts';

export interface AppDeps {
  db: Db;
  media: MediaStorage;
  mailer: Mailer;
  clock: Clock;
  /** The payment provider per currency: INR → Razorpay, USD → Stripe, the built-in test checkout where one is missing. */
  payments: PaymentProviders;
  rateLimitStore: RateLimitStore;
  sessionSecret: string;
  /** Session cookie gets Secure (PUBLIC_ORIGIN is https). */
  secureCookies: boolean;
  /** Which X-Forwarded-For entries to believe (config.ts `TrustProxy`). */
  trustProxy: TrustProxy;
  /** The built web app; served with an SPA fallback when the folder exists. */
  webDistDir: string | null;
  /** pino's level (and a stream: stdout when none), or no logging. */
  logger: LogOptions | false;
  /** Per-IP limit on the sign-in calls. */
  authRateLimit?: { max: number; timeWindow: number };
  /** Gift recognition (enrolment at submit, scans, demo). */
  recogniser: Recogniser;
  /** Folders with the web app's public files (demo gift images). */
  demoImageDirs?: string[];
  scanFailureLimit?: ScanFailureLimit;
  /** The live frames' rate and budget; default LIVE_SCAN. */
  liveScanLimit?: LiveScanLimit;
  /** Per-client limit on every scan call (process-scan, demo scan); default 60 a minute. */
  scanRateLimit?: { max: number; timeWindow: number };
  /** Per-client limit on the reaction calls; default 30 a minute. */
  reactionRateLimit?: { max: number; timeWindow: number };
  /** Per-client limit on verify-payment-callback; default 30 a minute. */
  paymentRateLimit?: { max: number; timeWindow: number };
  /** New gifts and added photos per sender (each photo is decoded and enrolled). */
  giftRateLimit?: { max: number; timeWindow: number };
  /** Confirmed uploads per sender (each is copied and probed by ffprobe). */
  confirmRateLimit?: { max: number; timeWindow: number };
  /** The VAPID public key, and the hosts subscription endpoints may name (null: the browsers' push services). */
  push: { publicKey: string; allowedHosts: string[] | null };
  /** Scheduled WhatsApp through the Cloud API (WHATSAPP_* set). */
  whatsappEnabled: boolean;
  /** ffmpeg, when installed: uploads are probed at confirm and converted by a job. */
  mediaProcessor: MediaProcessor | null;
  /** This process's scratch folder, where uploads are copied for ffprobe. */
  scratch: Scratch;
  /** Tells an in-process job runner that a job is due now. */
  wakeJobs?: () => void;
  /** The IP-to-country table behind GET /api/geo; default the embedded one (decision 040), read on first use. */
  ipCountry?: () => IpCountry;
  /** PUBLIC_ORIGIN: state-changing calls carrying our cookies must come from here (or the request's own host). */
  publicOrigin: string;
  /** TEST_CLOCK (browser tests only): `clock` itself, which `POST /api/test/clock` moves forward. */
  testClock?: AdjustableClock | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The server's own paths; everything else is the web app. */
const BACKEND_PATH = /^\/(api|media)(\/|$)/;
/** The cookies that authenticate a call: a sender or recipient session, a reveal grant. */
const CREDENTIAL_COOKIE = /(?:^|;\s*)gl_(?:sender|recipient|reveal_[0-9a-f]+)=/;

/** The browsable API reference; its OpenAPI 3 document is at `${API_DOCS_PATH}/json`. */
export const API_DOCS_PATH = '/api/docs';
/** A call of the JSON API: under /api/ but not the browsable reference (a page of its own). */
const isApiCall = (url: string) => url.startsWith('/api/') && !url.startsWith(API_DOCS_PATH);

/**
 * The path as the router reads it: %-escapes decoded, so `/%61pi/gift-sender/me` is the API call it reaches (and
 * gets the API's headers, no-store among them); the URL as it came when an escape is malformed.
 */
const routedPath = (url: string) => {
  if (!url.includes('%')) return url;
  try {
    return decodeURIComponent(url.split('?')[0] ?? url);
  } catch {
    return url;
  }
};

/** Only the API is documented: the web app's files, the media URLs and the reference itself are not calls. */
const apiOnly: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const documented = isApiCall(input.url);
  return documented ? out : { ...out, schema: { ...out.schema, hide: true } };
};

/** Where a reverse proxy in front can connect from: loopback and the private, unique-local and link-local ranges. */
const PRIVATE_PEERS = (() => {
  const list = new BlockList();
  for (const [net, bits] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16]] as const)
    list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) list.addSubnet(net, bits, 'ipv6');
  return list;
})();

/**
 * Fastify's trust function for `n` proxies in front (Fastify refuses a bare hop count: it cannot validate the
 * socket's peer). Hop 0 is the peer: trusted only from loopback or a private network, where a proxy in front
 * connects from, so a client that reaches the node directly from the internet cannot name its own address; hops
 * 1..n-1 are the entries the further proxies appended.
 */
function trustHops(n: number) {
  // The range check costs about a microsecond and request.ip is read several times a request; behind a proxy the
  // peer is almost always the same one, so the last answer is kept.
  let peer = '';
  let peerTrusted = false;
  return (address: string, hop: number) => {
    if (hop > 0) return hop < n;
    if (address !== peer) {
      peer = address;
      peerTrusted = PRIVATE_PEERS.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
    }
    return peerTrusted;
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // The browser security headers of the pages and files (helmet's, computed once: lib/security-headers.ts), set by
  // the hook below.
  const webDistDir = deps.webDistDir && existsSync(path.join(deps.webDistDir, 'index.html')) ? deps.webDistDir : null;
  const headers = securityHeaders({
    webDistDir,
    razorpay: Object.values(deps.payments).some((p) => p.name === 'razorpay'),
    https: deps.secureCookies,
    mediaOrigin: deps.media.browserOrigin,
  });
  // The API's JSON answers carry the smaller set a JSON answer needs, and no-store (decision 036).
  const apiHeaders: Record<string, string> = {
    ...helmetHeaders(apiHelmetOptions({ https: deps.secureCookies })),
    'cache-control': 'no-store',
  };
  /** The security headers of an answer, and its caching: the JSON set on API calls, helmet's whole set elsewhere. */
  const putHeaders = (rawUrl: string, reply: FastifyReply) => {
    const url = routedPath(rawUrl);
    if (isApiCall(url)) reply.headers(apiHeaders);
    else {
      reply.headers(headers());
      if (url.startsWith('/api/')) reply.header('cache-control', 'no-store');
      else if (webDistDir && !BACKEND_PATH.test(url)) reply.header('vary', 'Accept-Encoding');
    }
  };

  // Requests Node's HTTP parser refuses before Fastify sees them (a body framed twice, a control byte in a header,
  // headers over 16 kB, which large cookies can make) are answered on the socket: decision 001's JSON body and the
  // API's headers, instead of Fastify's default body without any security header. The connection is closed.
  const rawApiHeaders = Object.entries(apiHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const clientErrorHandler = (err: Error & { code?: string }, socket: Duplex) => {
    // Nothing to answer on a dead socket, or in the middle of an answer already under way on it (a pipelined bad
    // request): the connection is only cut. Node's own server makes the same check on its current message.
    const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, code] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'headers_too_large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'request_timeout']
          : [400, 'Bad Request', 'bad_request'];
    const body = JSON.stringify({ success: false, error: texts.sender.generic, code });
    // Written, then the socket is destroyed: a half-open client (or a slow-loris one, timed out here too) must not
    // keep it.
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n${rawApiHeaders}` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  };

  const app = Fastify({
    ...loggerOptions(deps.logger),
    clientErrorHandler,
    // A hop count n: the socket's peer (from a private network) and the n - 1 entries nearest to it are proxies.
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : deps.trustProxy,
    // The router's own refusals (a malformed %-escape in the path, a path parameter over 100 characters) skip
    // the error handler: they get decision 001's body too.
    frameworkErrors: (err, request, reply) => {
      const status = typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 400;
      // They come before the hooks too: the answer's security headers are put here.
      putHeaders(request.url, reply);
      void (reply as FastifyReply).code(status).send({ success: false, error: texts.sender.generic, code: err.code });
    },
  });

  if (deps.trustProxy === true) {
    app.log.warn(
      'TRUST_PROXY=true believes the left-most X-Forwarded-For entry, which a client can write itself: per-address rate limits can be dodged unless the proxy overwrites the header. Set TRUST_PROXY to the number of proxies in front (1 for one) or to their addresses.',
    );
  }

  // One error handler: validation → 400 with the spec text, domain errors → their status, the rest → logged 500.
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    // By name, not instanceof: the contract package may bring its own copy of zod.
    if (err.name === 'ZodError') err = validationError(err as ZodError);
    // A route's declared schema refused the input: the contract's text, else the route's fallback.
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]?.message;
      err = validationError(first, request.routeOptions.config.validationFallback);
    }
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.warn({ err, url: request.url }, err.message);
      const retryAfter = err.extra.retryAfter;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply
        .code(err.statusCode)
        .send({ success: false, error: err.message, code: err.code, ...err.extra });
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status < 500) {
      // Framework-level client errors: malformed JSON, wrong content type, body too large.
      const code = 'code' in err && typeof err.code === 'string' ? err.code : 'bad_request';
      return reply.code(status).send({ success: false, error: texts.sender.generic, code });
    }
    request.log.error({ err, method: request.method, url: request.url, reqId: request.id }, 'request failed');
    // The database or the media store could not be reached or did not answer: not a bug, and worth a retry.
    if (isUnreachable(err)) {
      return reply.code(503).header('retry-after', '30').send({ success: false, error: texts.sender.generic, code: 'service_unavailable' });
    }
    return reply.code(500).send({ success: false, error: texts.sender.generic, code: 'internal' });
  });

  // Every route declares its input with the contract's zod schemas; they validate it and document the API.
  app.setValidatorCompiler(validatorCompiler);
  // The few routes that declare their answers (open-with-code) are serialised through the same zod schemas.
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'GiftLens API',
        version: '1',
        description:
          'Every call of the GiftLens server. Failures answer `{ success: false, error, code }` where `error` is the text a user sees. Sender calls need the `gl_sender` session cookie (from verify-email); recipient calls the `gl_recipient` cookie or a reveal grant.',
      },
    },
    transform: apiOnly,
  });
  // Its own static CSP would replace ours (and block its inline styles): the app's policy below covers it.
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PATH });
  // @fastify/cookie without its parsing hook: cookies are parsed when a call reads one (requestCookie).
  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyRateLimit, {
    global: false,
    // In Redis under a prefix of ours; while Redis is down or does not answer, in this process's memory with the same
    // limits, rather than refusing, hanging or letting through every limited call (rate-limit-store.ts).
    ...(deps.rateLimitStore.kind === 'redis' ? { store: sharedOrLocalStore(deps.rateLimitStore, 'gl:rl:') } : {}),
    // No x-ratelimit-* headers on the answers under the limit (nothing reads them); a refusal keeps Retry-After.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', texts.sender.tooManyRequests, { retryAfter: Math.ceil(context.ttl / 1000) }),
  });

  // One synchronous onRequest hook for what every call needs: each hook, and an async one more so, costs every
  // call (decision 032).
  // - Browser security headers on every answer: a strict CSP, no framing, nosniff, a referrer policy, HSTS on https;
  //   on the API's JSON answers the smaller set of those a JSON answer needs (decision 036).
  // - API answers hold personal data (a sender's gifts, a recipient's name, signed media links): never stored by a
  //   browser or a proxy unless the route says otherwise (its own cache-control replaces this one). The web app's
  //   files answer brotli, gzip or raw bytes at one URL, depending on the request.
  // - CSRF: SameSite=Lax alone lets a cross-site form or a top-level navigation carry the cookies. A
  //   state-changing call that carries one must come from our own origin (Origin, or Sec-Fetch-Site when Origin
  //   is absent: same-origin or none); calls without our cookies (the provider's webhook, the signed upload PUT) are
  //   not affected.
  app.addHook('onRequest', (request, reply, done) => {
    putHeaders(request.url, reply);
    if (SAFE_METHODS.has(request.method) || !CREDENTIAL_COOKIE.test(request.headers.cookie ?? '')) return done();
    const origin = request.headers.origin;
    const own = origin === deps.publicOrigin || origin === `${request.protocol}://${request.host}`;
    const site = request.headers['sec-fetch-site'];
    // A sibling subdomain (same-site) is not our origin either; no header at all is a client that is no browser.
    const crossSite = origin !== undefined ? !own : site === 'cross-site' || site === 'same-site';
    done(crossSite ? new AppError(403, 'cross_site_refused', texts.sender.crossSiteRefused) : undefined);
  });

  // ---- Services: each module's rules, over the adapters in `deps` ----
  const { db, media, clock, recogniser } = deps;
  const log = (line: string) => app.log.warn(line);
  const senderAuth = createSenderAuthService({
    db,
    mailer: deps.mailer,
    clock,
    sessionSecret: deps.sessionSecret,
    log,
  });
  const recipientAuth = createRecipientAuthService({
    db,
    mailer: deps.mailer,
    clock,
    sessionSecret: deps.sessionSecret,
    log,
  });
  const requireSender = senderGuard((token) => senderAuth.senderForToken(token));
  const requireRecipient = recipientGuard((token) => recipientAuth.recipientForToken(token));
  const grants = createRevealGrants({ db, clock, secureCookies: deps.secureCookies });
  // Every paid gift's backup code, sealed under a key derived from SESSION_SECRET (decision 039).
  const backupCodes = createBackupCodes(deps.sessionSecret);
  const gifts = createGiftsService({ db, media, clock, recogniser, backupCodes });
  // Every message and reaction passes the same hostile-media gate before it is stored (decision 038).
  const gate = createMediaGate({ processor: deps.mediaProcessor, scratch: deps.scratch });
  const renders = deps.mediaProcessor !== null;
  const uploads = createUploadsService({ db, media, clock, gate, renders, wakeJobs: deps.wakeJobs });
  const payments = createPaymentsService({ db, providers: deps.payments, clock, publicOrigin: deps.publicOrigin, backupCodes });
  const deliveries = createDeliveriesService({
    db,
    clock,
    whatsappEnabled: deps.whatsappEnabled,
    wakeJobs: deps.wakeJobs,
  });
  const myGifts = createMyGiftsService({ db, media, clock, backupCodes });
  const push = createPushService({
    db,
    clock,
    allowedHosts: deps.push.allowedHosts ?? DEFAULT_PUSH_SERVICE_HOSTS,
  });
  const messages = createMessagesService({ db, media, clock });
  // What both kinds of scan (process-scan and live frames) decide and reveal with (scan-core.ts).
  const scanCore = { db, media, clock, recogniser, messages, grants };
  const scans = createScansService({ ...scanCore, failureLimit: deps.scanFailureLimit, backupCodes });
  const reactions = createReactionsService({ db, media, clock, gate, renders, wakeJobs: deps.wakeJobs });
  const demo = createDemoService({
    recogniser,
    dirs: deps.demoImageDirs ?? (deps.webDistDir ? [deps.webDistDir] : []),
  });

  // ---- Routes: the sender's calls, then the recipient's, then media ----
  const authRateLimit = deps.authRateLimit ?? { max: 30, timeWindow: 60_000 };
  // Matching costs CPU even when it succeeds: every scan call (the demo's too) is limited per client.
  const scanRateLimit = deps.scanRateLimit ?? { max: 60, timeWindow: 60_000 };
  senderAuthRoutes(app, {
    service: senderAuth,
    requireSender,
    secureCookies: deps.secureCookies,
    rateLimit: authRateLimit,
  });
  plansRoutes(app);
  geoRoutes(app, { trustProxy: deps.trustProxy !== false, ipCountry: deps.ipCountry ?? embeddedIpCountry });
  giftsRoutes(app, { service: gifts, requireSender, rateLimit: deps.giftRateLimit ?? { max: 20, timeWindow: 10 * 60_000 } });
  uploadsRoutes(app, { service: uploads, requireSender, confirmRateLimit: deps.confirmRateLimit ?? { max: 30, timeWindow: 10 * 60_000 } });
  paymentsRoutes(app, {
    service: payments,
    requireSender,
    testMode: Object.values(deps.payments).some((p) => p.name === 'test'),
    verifyRateLimit: deps.paymentRateLimit ?? { max: 30, timeWindow: 60_000 },
  });
  deliveriesRoutes(app, { service: deliveries, requireSender });
  myGiftsRoutes(app, { service: myGifts, requireSender, secureCookies: deps.secureCookies });
  pushRoutes(app, { service: push, publicKey: deps.push.publicKey, requireSender });

  recipientAuthRoutes(app, {
    service: recipientAuth,
    requireRecipient,
    secureCookies: deps.secureCookies,
    rateLimit: authRateLimit,
  });
  // A saturated matcher refuses scans with 503 + Retry-After before they are read or counted (scanAdmission).
  const admission = scanAdmission(recogniser);
  scansRoutes(app, { service: scans, grants, requireRecipient, rateLimit: scanRateLimit, admission });
  // Live frames: counted in the rate-limit store (memory or Redis), never the database; refused while the matcher queues.
  const liveFrames = createLiveFramesService({
    ...scanCore,
    window: createSlidingWindow(deps.rateLimitStore, 'gl:live:'),
    limit: deps.liveScanLimit,
  });
  liveFramesRoutes(app, { service: liveFrames, grants, requireRecipient, admission: liveFrameAdmission(recogniser) });
  messagesRoutes(app, { service: messages, grants });
  reactionsRoutes(app, {
    service: reactions,
    grants,
    rateLimit: deps.reactionRateLimit ?? { max: 30, timeWindow: 60_000 },
  });
  demoRoutes(app, { service: demo, rateLimit: scanRateLimit, admission });

  mediaRoutes(app, { media, clock });
  if (deps.testClock) testClockRoutes(app, { clock: deps.testClock, wakeJobs: deps.wakeJobs });
  // Health for monitoring (database, media storage and mail: 503 naming what does not answer), readiness for a
  // load balancer (database and storage only: a mail relay outage must not take every node out of rotation; mail
  // waits in the job queue), and liveness (the process answers).
  // Redis, when configured, is reported by both as 'ok' (the limits are shared) or 'degraded' (it does not answer, and
  // each node enforces every limit in its own memory). Monitoring gets a 503, someone should look; readiness stays
  // 200: Redis is shared, so its outage would take every node out of rotation at once, and a node still serves safely.
  const probe = (check: () => Promise<unknown>) =>
    Promise.race([
      check().then(() => 'ok' as const),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 3000).unref()),
    ]).catch(() => 'unreachable' as const);
  const serving = () => Promise.all([probe(() => sql`select 1`.execute(db)), probe(() => media.check())]);
  const store = deps.rateLimitStore;
  const redisState = (mode: 'shared' | 'local') => (mode === 'shared' ? ('ok' as const) : ('degraded' as const));
  app.get(
    '/api/health',
    { schema: { tags: ['operations'], summary: 'Whether the database, media storage, mail and Redis (when set) are reachable' } },
    async (_request, reply) => {
      const [[database, storage], mail, redisAnswers] = await Promise.all([
        serving(),
        probe(() => deps.mailer.check()),
        // A PING (at most the command timeout): its answer also switches the limits back to shared, or to local.
        store.kind === 'redis' ? store.check() : null,
      ]);
      const redis = redisAnswers === null ? null : redisState(redisAnswers ? 'shared' : 'local');
      const healthy = database === 'ok' && storage === 'ok' && mail === 'ok' && (redis === null || redis === 'ok');
      reply.code(healthy ? 200 : 503);
      return { success: healthy, database, storage, mail, ...(redis === null ? {} : { redis }) };
    },
  );
  app.get(
    '/api/health/ready',
    { schema: { tags: ['operations'], summary: 'Whether this node can serve: its database and media storage answer' } },
    async (_request, reply) => {
      const [database, storage] = await serving();
      const ready = database === 'ok' && storage === 'ok';
      reply.code(ready ? 200 : 503);
      // No Redis round trip per probe: the state its last command or PING left (a PING every 10 s).
      return { success: ready, database, storage, ...(store.kind === 'redis' ? { redis: redisState(store.mode()) } : {}) };
    },
  );
  app.get('/api/health/live', { schema: { tags: ['operations'], summary: 'Whether the process answers' } }, () => ({
    success: true,
  }));

  if (webDistDir) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      index: false,
      // The build writes .br and .gz next to every text asset; send those to browsers that accept them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // Hashed build assets never change; the service worker and the shell must always be revalidated.
        const rel = path.relative(webDistDir, filePath).split(path.sep).join('/');
        res.setHeader(
          'cache-control',
          rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  const sendShell = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  if (webDistDir) app.get('/', (_request, reply) => sendShell(reply));

  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ max: 300, timeWindow: 60_000 }) },
    (request, reply) => {
      const isBackend = BACKEND_PATH.test(routedPath(request.url.split('?')[0] ?? '/'));
      if (webDistDir && (request.method === 'GET' || request.method === 'HEAD') && !isBackend)
        return sendShell(reply);
      return reply.code(404).send({ success: false, error: texts.sender.notFound, code: 'not_found' });
    },
  );

  return app;
}
