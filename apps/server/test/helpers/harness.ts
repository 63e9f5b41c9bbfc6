import { CODE_LIMITS } from '@giftlens/contract/constants';
import type { TrustProxy } from '../../src/config.ts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Agent } from 'node:https';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AppDeps, buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/adapters/clock.ts';
import { createOutboxMailer, type Mailer } from '../../src/adapters/mail.ts';
import { createLocalMediaStorage, type MediaStorage } from '../../src/adapters/media-storage.ts';
import { createS3MediaStorage } from '../../src/adapters/media-storage-s3.ts';
import { createTestPaymentProvider, type TestPaymentProvider } from '../../src/adapters/payments.ts';
import { createMatcherRecogniser } from '../../src/adapters/recogniser.ts';
import type { MediaProcessor } from '../../src/adapters/media-processor.ts';
import { createWebPushSender, type PushSender } from '../../src/adapters/push.ts';
import { createScratch } from '../../src/adapters/scratch.ts';
import type { WhatsAppSender } from '../../src/adapters/whatsapp.ts';
import type { Db } from '../../src/db/database.ts';
import { jobHandlers } from '../../src/composition.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/runner.ts';
import { deriveKey } from '../../src/lib/crypto.ts';
import { createMetrics, type Metrics } from '../../src/lib/metrics.ts';
import { observedAdapters } from '../../src/infrastructure.ts';
import { DATABASE_TARGETS, type DatabaseTarget } from './databases.ts';
import { startS3Server, type S3TestServer } from './s3.ts';

export type StorageKind = 'local' | 's3';

export const WEB_PUBLIC_DIR = path.resolve(import.meta.dirname, '../../../web/public');
export const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
export const PUBLIC_ORIGIN = 'http://giftlens.test';
/** One VAPID pair for the test run. */
export const VAPID = { ...webpush.generateVAPIDKeys(), subject: 'mailto:no-reply@giftlens.test' };

/**
 * The real matcher, one worker per test file shared by both databases' apps: its pool starts on the first enrol
 * or scan (a few seconds), so paying that once per file keeps the suite quick.
 */
const sharedRecogniser = createMatcherRecogniser({ size: 1 });
afterAll(() => sharedRecogniser.close());

export interface Harness {
  target: DatabaseTarget['name'];
  /** Where media lives: files under mediaDir, or a bucket on a loopback s3rver. */
  storage: StorageKind;
  /** The loopback S3 server when storage is 's3'. */
  s3: S3TestServer | null;
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  dataDir: string;
  mediaDir: string;
  outboxDir: string;
  media: MediaStorage;
  payments: TestPaymentProvider;
  /** The job runner over this harness's database, clock and mailer: `runDue()` runs what the clock says is due. */
  jobs: JobRunner;
  /** A runner of the sign-in code mails only (`readCode` runs it first). */
  codeMails: JobRunner;
  push: PushSender;
  /** The newest verification code mailed to this address (from the outbox, or wherever the mailer sends). */
  readCode(email: string): Promise<string>;
  /** DATABASE_URL for a worker process on this harness's database (null: SQLite in dataDir). */
  databaseUrl: string | null;
  /** The matcher the app enrols and scans with. */
  recogniser: AppDeps['recogniser'];
  /** The app's and the job runner's metrics when `metricsToken` was given (GET /metrics with it). */
  metrics: Metrics | null;
}

export interface HarnessOptions {
  mailer?: (h: { outboxDir: string }) => Mailer;
  webDistDir?: string;
  authRateLimit?: { max: number; timeWindow: number };
  trustProxy?: TrustProxy;
  /** As when PUBLIC_ORIGIN is https. */
  secureCookies?: boolean;
  scanFailureLimit?: AppDeps['scanFailureLimit'];
  /** The sign-in codes' limits; by default CODE_LIMITS with a per-client count no test reaches (all inject from one address). */
  codeLimits?: AppDeps['codeLimits'];
  scanRateLimit?: AppDeps['scanRateLimit'];
  /** The live frames' rate and budget; by default high enough never to refuse a test's frames. */
  liveScanLimit?: AppDeps['liveScanLimit'];
  /** Where rate limits and live-frame counters live (default: this app's memory). */
  rateLimitStore?: AppDeps['rateLimitStore'];
  /** Another matcher than the file's shared one (e.g. a smaller queue). */
  recogniser?: AppDeps['recogniser'];
  reactionRateLimit?: AppDeps['reactionRateLimit'];
  paymentRateLimit?: AppDeps['paymentRateLimit'];
  giftRateLimit?: AppDeps['giftRateLimit'];
  confirmRateLimit?: AppDeps['confirmRateLimit'];
  /** Other payment providers than the built-in test one (e.g. Razorpay or Stripe against a loopback server). */
  payments?: AppDeps['payments'];
  /** Trusts a loopback push receiver's certificate. */
  pushAgent?: Agent;
  pushAllowedHosts?: string[];
  whatsapp?: WhatsAppSender;
  /** ffmpeg for uploads (probe at confirm, a render job); by default none, so a message is ready at once. */
  mediaProcessor?: MediaProcessor | null;
  /** Where verification codes are read when the mailer is not the outbox. */
  readCode?: (email: string) => Promise<string>;
  /** Media on local files (default) or in a bucket of an s3rver started for this harness. */
  storage?: StorageKind;
  /** The server's logging (default: none). */
  logger?: AppDeps['logger'];
  /** `POST /api/test/clock` moves the harness's clock, as on a server started with TEST_CLOCK=1. */
  testClockRoute?: boolean;
  /** METRICS_TOKEN: /metrics on, mail, push and the matcher counted as infrastructure.ts counts them. */
  metricsToken?: string;
  /** STAFF_EMAILS (default: none, so no staff console). */
  staffEmails?: string[];
  /** WEBHOOK_ALLOW_HTTP_HOSTS (default: none). */
  webhookAllowHttpHosts?: string[];
  /** The merchant API's limit per key (default: high enough never to refuse a test's calls). */
  merchantRateLimit?: AppDeps['merchantRateLimit'];
}

export async function createHarness(target: DatabaseTarget, opts: HarnessOptions = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), `giftlens-${target.name}-`));
  const { db, drop, url: databaseUrl } = await target.create(dataDir);
  const clock = new ManualClock(new Date('2026-11-21T10:00:00.000Z'));
  const mediaDir = path.join(dataDir, 'media');
  const scratch = createScratch(path.join(dataDir, 'scratch'));
  const outboxDir = path.join(dataDir, 'outbox');
  const mediaSecret = deriveKey(SESSION_SECRET, 'media-urls');
  const s3 = opts.storage === 's3' ? await startS3Server({ corsOrigin: PUBLIC_ORIGIN }) : null;
  const s3Media = s3 ? createS3MediaStorage(s3.settings, { secret: mediaSecret, stagingDir: path.join(mediaDir, '.tmp') }) : null;
  const media = s3Media ?? createLocalMediaStorage(mediaDir, mediaSecret);
  const payments = createTestPaymentProvider(SESSION_SECRET);
  const sentMailer = opts.mailer
    ? opts.mailer({ outboxDir })
    : createOutboxMailer(outboxDir, 'GiftLens <no-reply@giftlens.test>', () => undefined);
  const sentPush = createWebPushSender(VAPID, opts.pushAgent ? { agent: opts.pushAgent } : {});
  const metrics = opts.metricsToken ? createMetrics() : null;
  const adapters = { db, clock, mailer: sentMailer, push: sentPush, recogniser: opts.recogniser ?? sharedRecogniser };
  const { mailer, push, recogniser } = metrics ? observedAdapters(adapters, metrics) : adapters;
  const app = await buildApp({
    db,
    media,
    mailer,
    clock,
    payments: opts.payments ?? { INR: payments, USD: payments },
    rateLimitStore: opts.rateLimitStore ?? { kind: 'memory' },
    sessionSecret: SESSION_SECRET,
    secureCookies: opts.secureCookies ?? false,
    trustProxy: opts.trustProxy ?? false,
    webDistDir: opts.webDistDir ?? null,
    logger: opts.logger ?? false,
    authRateLimit: opts.authRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    recogniser,
    demoImageDirs: [WEB_PUBLIC_DIR],
    ...(opts.scanFailureLimit ? { scanFailureLimit: opts.scanFailureLimit } : {}),
    codeLimits: opts.codeLimits ?? { ...CODE_LIMITS, perClient: 10_000 },
    scanRateLimit: opts.scanRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    liveScanLimit: opts.liveScanLimit ?? { perClientPerSecond: 10_000, perTarget: 10_000, perClient: 10_000, windowMs: 60_000 },
    reactionRateLimit: opts.reactionRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    paymentRateLimit: opts.paymentRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    giftRateLimit: opts.giftRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    confirmRateLimit: opts.confirmRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    push: { publicKey: VAPID.publicKey, allowedHosts: opts.pushAllowedHosts ?? null },
    whatsappEnabled: opts.whatsapp !== undefined,
    mediaProcessor: opts.mediaProcessor ?? null,
    scratch,
    publicOrigin: PUBLIC_ORIGIN,
    testClock: opts.testClockRoute ? clock : null,
    metrics: metrics ?? undefined,
    metricsToken: opts.metricsToken ?? null,
    staffEmails: opts.staffEmails ?? [],
    webhookAllowHttpHosts: opts.webhookAllowHttpHosts ?? [],
    merchantRateLimit: opts.merchantRateLimit ?? { max: 10_000, timeWindow: 60_000 },
  });
  await app.ready();
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const handlers = jobHandlers({
    db,
    clock,
    mailer,
    media,
    processor: opts.mediaProcessor ?? null,
    scratch,
    push,
    whatsapp: opts.whatsapp ?? null,
    publicOrigin: PUBLIC_ORIGIN,
    sessionSecret: SESSION_SECRET,
    log: quiet,
    webhookAllowHttpHosts: opts.webhookAllowHttpHosts ?? [],
  });
  const jobs = createJobRunner({
    db,
    clock,
    log: quiet,
    observer: metrics?.jobs,
    handlers,
  });
  // Sign-in codes are mailed by a job (issue 37): reading one runs the due code mails first, and nothing else.
  const codeMails = createJobRunner({ db, clock, log: quiet, handlers, kinds: { only: ['auth.code_mail'] } });
  const readCode = opts.readCode ?? ((email: string) => codeFromOutbox(outboxDir, email));
  const harness: Harness = {
    target: target.name,
    storage: media.kind,
    s3,
    app,
    db,
    clock,
    dataDir,
    mediaDir,
    outboxDir,
    media,
    payments,
    jobs,
    codeMails,
    push,
    databaseUrl,
    recogniser,
    metrics,
    async readCode(email) {
      await codeMails.runDue();
      return readCode(email);
    },
  };
  return {
    harness,
    async close() {
      await app.close();
      mailer.close();
      s3Media?.close();
      await s3?.stop();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the suite once per database (SQLite, PostgreSQL), each with its own app and fresh database.
 * `get()` returns the harness inside tests.
 */
export function describeEachDatabase(
  title: string,
  suite: (get: () => Harness) => void,
  opts: HarnessOptions = {},
): void {
  for (const target of DATABASE_TARGETS) {
    const name = opts.storage === 's3' ? `${target.name}, s3` : target.name;
    describe.skipIf(target.unavailable !== null)(`${title} [${name}]`, () => {
      let current: Awaited<ReturnType<typeof createHarness>> | undefined;
      beforeAll(async () => {
        current = await createHarness(target, opts);
      }, 60_000);
      afterAll(async () => {
        await current?.close();
      }, 60_000);
      suite(() => {
        if (!current) throw new Error('harness not ready');
        return current.harness;
      });
    });
  }
}

/** The suite on each database, once with media on local files and once in a bucket on a loopback S3 server. */
export function describeEachStorage(
  title: string,
  suite: (get: () => Harness, storage: StorageKind) => void,
  opts: HarnessOptions = {},
): void {
  for (const storage of ['local', 's3'] as const) {
    describeEachDatabase(title, (get) => suite(get, storage), { ...opts, storage });
  }
}

export { it };

// ---------- HTTP helpers ----------

export const json = <T = Record<string, unknown>>(res: Pick<LightMyRequestResponse, 'json'>) => res.json<T>();

/** An HTTP answer from the app (inject) or from the bucket (fetch), read the same way. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
  json<T = unknown>(): T;
}

async function fromFetch(res: Response): Promise<Answer> {
  const rawPayload = Buffer.from(await res.arrayBuffer());
  const body = rawPayload.toString('utf8');
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers.entries()),
    body,
    rawPayload,
    json: <T>() => JSON.parse(body) as T,
  };
}

/**
 * PUTs upload bytes where generate-upload-url said: the app's own signed target (local files), or a presigned
 * URL of the bucket, fetched over loopback as a browser would.
 */
export async function putUpload(h: Harness, url: string, data: Buffer, type = 'video/mp4'): Promise<Answer> {
  if (/^https?:\/\//.test(url)) {
    return fromFetch(await fetch(url, { method: 'PUT', body: data, headers: { 'content-type': type } }));
  }
  return h.app.inject({ method: 'PUT', url, headers: { 'content-type': type }, payload: data });
}

/**
 * GETs a signed /media URL as a browser would: the app's answer, or, when it redirects to a presigned URL of
 * the bucket, the bucket's answer to the same request (Range included).
 */
export async function fetchMedia(h: Harness, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await h.app.inject({ method: 'GET', url, headers });
  const location = res.headers.location;
  if (res.statusCode !== 302 || typeof location !== 'string') return res;
  return fromFetch(await fetch(location, { headers }));
}

export function cookieHeader(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (!first) throw new Error('no set-cookie header');
  return first.split(';')[0] ?? '';
}

let counter = 0;
export const uniqueEmail = (prefix = 'sender') =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}@example.com`;

/** The verification code from the newest .eml in the outbox addressed to `email`. */
export async function codeFromOutbox(outboxDir: string, email: string): Promise<string> {
  const files = (await readdir(outboxDir)).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files.reverse()) {
    const eml = await readFile(path.join(outboxDir, file), 'utf8');
    if (!new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(eml)) continue;
    const code = /^Subject: Your GiftLens verification code is (\d{6})$/m.exec(eml)?.[1];
    if (code) return code;
  }
  throw new Error(`no code mailed to ${email}`);
}

/** Full sign-in through the real calls: send-email, code from the outbox, verify-email. Returns the cookie. */
export async function signIn(h: Harness, email = uniqueEmail(), firstName: string | null = 'Asha') {
  const sent = await h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/send-email',
    payload: { email, type: 'sender' },
  });
  if (sent.statusCode !== 200) throw new Error(`send-email failed: ${sent.body}`);
  const code = await h.readCode(email);
  const verified = await h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/verify-email',
    payload: { email, code, type: 'sender' },
  });
  if (verified.statusCode !== 200) throw new Error(`verify-email failed: ${verified.body}`);
  const cookie = cookieHeader(verified);
  if (firstName) {
    await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/update-user',
      headers: { cookie },
      payload: { firstName },
    });
  }
  return { cookie, email };
}
