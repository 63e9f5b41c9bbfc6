import path from 'node:path';
import { systemClock, TestClock, type Clock } from './adapters/clock.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './adapters/mail.ts';
import { createFfmpegProcessor, type MediaProcessor } from './adapters/media-processor.ts';
import { createLocalMediaStorage, type MediaStorage } from './adapters/media-storage.ts';
import { createRazorpayProvider, createTestPaymentProvider, type PaymentProviders } from './adapters/payments.ts';
import { createRateLimitStore, type RateLimitStore } from './adapters/rate-limit-store.ts';
import {
  createMatcherRecogniser,
  isUnreadableImage,
  type MatcherRecogniserOptions,
  type Recogniser,
  RecogniserBusyError,
} from './adapters/recogniser.ts';
import { createScratch, type Scratch } from './adapters/scratch.ts';
import { createWebPushSender, resolveVapidKeys, type PushSender } from './adapters/push.ts';
import { createWhatsAppCloud, type WhatsAppSender } from './adapters/whatsapp.ts';
import { type Config, resolveSessionSecret } from './config.ts';
import { createDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { readJobGauges } from './jobs/job-gauges.ts';
import { deriveKey } from './lib/crypto.ts';
import { createMetrics, type Metrics } from './lib/metrics.ts';
import { performance } from 'node:perf_hooks';

/** The adapters chosen from configuration, shared by the server (`npm start`) and the worker (`npm run worker`). */
export interface Infrastructure {
  sessionSecret: string;
  db: Db;
  migrationsApplied: string[];
  mailer: Mailer;
  media: MediaStorage;
  /** ffmpeg and ffprobe, or null when they are missing (said at start-up; uploads are then kept as they are). */
  processor: MediaProcessor | null;
  /** This process's scratch folder under DATA_DIR/scratch (probe and render copies). */
  scratch: Scratch;
  push: PushSender;
  whatsapp: WhatsAppSender | null;
  clock: Clock;
  /** The same clock when TEST_CLOCK is on (browser tests move it forward); null otherwise. */
  testClock: TestClock | null;
  /** The matcher (a worker-thread pool): the server's enrols and scans, a worker's rates old photos. */
  recogniser: Recogniser;
  /** This process's Prometheus metrics: mail, push and the matcher counted here, the jobs table read when scraped. */
  metrics: Metrics;
  /** The matcher's pool, then the database, mail and storage clients. */
  close(): Promise<void>;
}

/** What only an API node needs besides: the payment providers and where rate limits are counted. */
export interface ServerInfrastructure extends Infrastructure {
  /** INR → Razorpay, USD → Stripe; a region without its keys uses the test checkout (config allows that only in test). */
  payments: PaymentProviders;
  rateLimitStore: RateLimitStore;
}

type InfrastructureLog = { warn(msg: string): void; info(msg: string): void };

/** The adapters of any process; `recogniser` sizes its matcher pool (the worker's is one thread, started on use). */
export async function createInfrastructure(
  config: Config,
  log: InfrastructureLog,
  opts: { recogniser?: MatcherRecogniserOptions } = {},
): Promise<Infrastructure> {
  const sessionSecret = resolveSessionSecret(config);
  const db = await createDatabase(config.database, (err) => log.warn(`database: an idle connection dropped (${err.message})`));
  // Every process migrates at start; Kysely's migration lock makes concurrent starts safe.
  const migrationsApplied = await migrateToLatest(db);
  const metrics = createMetrics();
  const sentMailer =
    config.mail.kind === 'smtp'
      ? createSmtpMailer(config.mail.url, config.mail.from)
      : createOutboxMailer(config.mail.dir, config.mail.from, (line) => log.info(line));
  const mediaDir = path.join(config.dataDir, 'media');
  const mediaSecret = deriveKey(sessionSecret, 'media-urls');
  // Bytes the server receives itself are staged on local disk before they go to the bucket. The AWS SDK is loaded
  // only with S3 configured (the adapter is its own chunk in the build; decision 022).
  const s3 = config.s3
    ? (await import('./adapters/media-storage-s3.ts')).createS3MediaStorage(config.s3, {
        secret: mediaSecret,
        stagingDir: path.join(mediaDir, '.tmp'),
      })
    : null;
  const media = s3 ?? createLocalMediaStorage(mediaDir, mediaSecret);
  const webPush = createWebPushSender(resolveVapidKeys(config.vapid, config.dataDir));
  const whatsapp = config.whatsapp ? createWhatsAppCloud(config.whatsapp) : null;
  const processor = await createFfmpegProcessor({ limits: config.renderLimits });
  if (!processor)
    log.warn(
      'ffmpeg/ffprobe not found on the PATH: messages and reactions are kept as uploaded, which some phones (iPhones) cannot play. Install ffmpeg (Debian: apt-get install ffmpeg).',
    );
  else if (!processor.confinement.confined)
    log.warn(
      'setpriv/prlimit (util-linux) not found: ffmpeg runs without its CPU-time and memory limits and outlives a killed process. Install util-linux.',
    );
  // This process's own scratch folder; what processes of this machine that no longer run left there goes now.
  const scratch = createScratch(path.join(config.dataDir, 'scratch'));
  await scratch.sweep(Number.POSITIVE_INFINITY, new Date()).catch((err: unknown) => log.warn(`scratch: could not sweep (${err instanceof Error ? err.message : String(err)})`));
  const testClock = config.testClock ? new TestClock() : null;
  const clock = testClock ?? systemClock;
  const { mailer, push, recogniser } = observedAdapters(
    { db, clock, mailer: sentMailer, push: webPush, recogniser: createMatcherRecogniser(opts.recogniser) },
    metrics,
  );
  return {
    processor,
    scratch,
    sessionSecret,
    db,
    migrationsApplied,
    mailer,
    media,
    push,
    whatsapp,
    clock,
    testClock,
    recogniser,
    metrics,
    async close() {
      await recogniser.close();
      await db.destroy();
      mailer.close();
      s3?.close();
    },
  };
}

/**
 * An API node's adapters (`npm start`): the common ones with a matcher started at once (the first scan must not wait
 * for it), the payment providers and the rate-limit store (Redis when REDIS_URL is set, else this process's memory).
 */
export async function createServerInfrastructure(config: Config, log: InfrastructureLog): Promise<ServerInfrastructure> {
  const infra = await createInfrastructure(config, log, { recogniser: { eager: true } });
  const rateLimitStore = await createRateLimitStore(config.redisUrl, (line) => log.warn(line));
  if (rateLimitStore.kind === 'redis') infra.metrics.watch({ rateLimitStoreShared: () => (rateLimitStore.mode() === 'shared' ? 1 : 0) });
  const testCheckout = createTestPaymentProvider(infra.sessionSecret);
  const payments: PaymentProviders = {
    INR: config.razorpay ? createRazorpayProvider(config.razorpay) : testCheckout,
    // Loaded only when configured (its own chunk in the build): the stripe package takes about a second to import on a
    // loaded machine (decision 022).
    USD: config.stripe ? (await import('./adapters/stripe.ts')).createStripeCheckoutProvider(config.stripe) : testCheckout,
  };
  return {
    ...infra,
    payments,
    rateLimitStore,
    async close() {
      await infra.close();
      if (rateLimitStore.kind === 'redis') rateLimitStore.client.disconnect();
    },
  };
}

/**
 * The adapters that send and match, counted (lib/metrics.ts): mails and pushes sent and failed, each match's outcome
 * and time (queue wait included); the matcher's waiting tasks and the jobs table read when scraped. The same calls
 * pass through.
 */
export function observedAdapters(
  { db, clock, mailer, push, recogniser }: { db: Db; clock: Clock; mailer: Mailer; push: PushSender; recogniser: Recogniser },
  metrics: Metrics,
): { mailer: Mailer; push: PushSender; recogniser: Recogniser } {
  const timed =
    (kind: 'scan' | 'live', match: Recogniser['match']): Recogniser['match'] =>
    async (query, references) => {
      const started = performance.now();
      try {
        const decision = await match(query, references);
        metrics.scan(kind, decision.matched ? 'matched' : 'no_match', performance.now() - started);
        return decision;
      } catch (err) {
        metrics.scan(kind, err instanceof RecogniserBusyError ? 'busy' : isUnreadableImage(err) ? 'unreadable' : 'error');
        throw err;
      }
    };
  metrics.watch({ matcherWaiting: () => recogniser.waiting?.() ?? 0, jobs: () => readJobGauges(db, clock.now()) });
  return {
    mailer: {
      async send(message) {
        try {
          await mailer.send(message);
        } catch (err) {
          metrics.mail('failed');
          throw err;
        }
        metrics.mail('sent');
      },
      check: () => mailer.check(),
      close: () => mailer.close(),
    },
    push: {
      publicKey: push.publicKey,
      async send(target, notice) {
        try {
          const result = await push.send(target, notice);
          metrics.push(result);
          return result;
        } catch (err) {
          metrics.push('failed');
          throw err;
        }
      },
    },
    recogniser: {
      enrol: (image) => recogniser.enrol(image),
      lookalike: (reference, others) => recogniser.lookalike(reference, others),
      match: timed('scan', (query, references) => recogniser.match(query, references)),
      matchLive: timed('live', (query, references) => recogniser.matchLive(query, references)),
      busy: () => recogniser.busy(),
      queued: () => recogniser.queued(),
      waiting: () => recogniser.waiting?.() ?? 0,
      close: () => recogniser.close(),
    },
  };
}
