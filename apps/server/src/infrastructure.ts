import path from 'node:path';
import { systemClock, TestClock, type Clock } from './adapters/clock.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './adapters/mail.ts';
import { createFfmpegProcessor, type MediaProcessor } from './adapters/media-processor.ts';
import { createLocalMediaStorage, type MediaStorage } from './adapters/media-storage.ts';
import type { Recogniser } from './adapters/recogniser.ts';
import { createScratch, type Scratch } from './adapters/scratch.ts';
import { createWebPushSender, resolveVapidKeys, type PushSender } from './adapters/push.ts';
import { createWhatsAppCloud, type WhatsAppSender } from './adapters/whatsapp.ts';
import { type Config, resolveSessionSecret } from './config.ts';
import { createDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { createJobHandlers } from './jobs/handlers.ts';
import { combineRunners, createJobRunner, type JobLog, type JobRunner, type JobRunnerOptions } from './jobs/runner.ts';
import { deriveKey } from './lib/crypto.ts';
import { scheduleHousekeeping } from './modules/housekeeping/housekeeping.jobs.ts';
import { RENDER_JOB_KINDS } from './modules/renditions/renditions.jobs.ts';

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
  close(): Promise<void>;
}

export async function createInfrastructure(config: Config, log: { warn(msg: string): void; info(msg: string): void }): Promise<Infrastructure> {
  const sessionSecret = resolveSessionSecret(config);
  const db = await createDatabase(config.database, (err) => log.warn(`database: an idle connection dropped (${err.message})`));
  // Every process migrates at start; Kysely's migration lock makes concurrent starts safe.
  const migrationsApplied = await migrateToLatest(db);
  const mailer =
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
  const push = createWebPushSender(resolveVapidKeys(config.vapid, config.dataDir));
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
    clock: testClock ?? systemClock,
    testClock,
    async close() {
      await db.destroy();
      mailer.close();
      s3?.close();
    },
  };
}

/**
 * Starts the job runner on this process: every job kind, and the recurring housekeeping (which rates photos enrolled
 * before the rating existed with `recogniser`).
 */
export async function startJobs(infra: Infrastructure, config: Config, log: JobLog, recogniser: Recogniser): Promise<JobRunner> {
  const handlers = createJobHandlers({ ...infra, publicOrigin: config.publicOrigin, log, recogniser });
  const lane = (concurrency: number, kinds: JobRunnerOptions['kinds']) =>
    createJobRunner({ db: infra.db, clock: infra.clock, log, concurrency, handlers, kinds });
  // Renders in a lane of their own (RENDER_CONCURRENCY, default 1): a long ffmpeg never delays a delivery or a notice.
  const lanes = [lane(config.jobConcurrency, { except: RENDER_JOB_KINDS })];
  if (config.renderConcurrency > 0) lanes.push(lane(config.renderConcurrency, { only: RENDER_JOB_KINDS }));
  const runner = combineRunners(lanes);
  await scheduleHousekeeping(infra.db, infra.clock);
  runner.start();
  return runner;
}
