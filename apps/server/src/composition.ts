import type { Clock } from './adapters/clock.ts';
import type { Mailer } from './adapters/mail.ts';
import type { MediaProcessor } from './adapters/media-processor.ts';
import type { MediaStorage } from './adapters/media-storage.ts';
import type { PaymentProviders } from './adapters/payments.ts';
import type { RateLimitStore } from './adapters/rate-limit-store.ts';
import type { Recogniser } from './adapters/recogniser.ts';
import type { Scratch } from './adapters/scratch.ts';
import { createSlidingWindow } from './adapters/sliding-window.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { createJobHandlers, type JobHandlerDeps } from './jobs/handlers.ts';
import { combineRunners, createJobRunner, type JobLog, type JobRunner, type JobRunnerOptions } from './jobs/runner.ts';
import { createBackupCodes } from './lib/backup-codes.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Infrastructure } from './infrastructure.ts';
import { createDeliveriesService } from './modules/deliveries/deliveries.service.ts';
import { createDemoService } from './modules/demo/demo.service.ts';
import { createGiftsService } from './modules/gifts/gifts.service.ts';
import { contributionsOpen, createGroupGiftsService } from './modules/group-gifts/group-gifts.service.ts';
import { scheduleHousekeeping } from './modules/housekeeping/housekeeping.jobs.ts';
import { createHousekeepingService, type HousekeepingDeps } from './modules/housekeeping/housekeeping.service.ts';
import type { CodeLimits } from './modules/auth/one-time-codes.ts';
import { createMediaGate } from './modules/media/media-gate.ts';
import { createMessagesService } from './modules/messages/messages.service.ts';
import { createGiftCardService } from './modules/gift-card/gift-card.service.ts';
import { createRemindersService } from './modules/reminders/reminders.service.ts';
import { createMyGiftsService } from './modules/my-gifts/my-gifts.service.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { createPushService, DEFAULT_PUSH_SERVICE_HOSTS } from './modules/push/push.service.ts';
import { createReactionsService } from './modules/reactions/reactions.service.ts';
import { createRecipientAuthService } from './modules/recipient-auth/recipient-auth.service.ts';
import { recipientGuard } from './modules/recipient-auth/recipient-session.ts';
import { COMBINED_LANE_KINDS, FFMPEG_KINDS, RENDER_LANE_KINDS } from './modules/renditions/renditions.jobs.ts';
import { createRevealGrants } from './modules/reveal-grants/reveal-grants.ts';
import { createLiveFramesService, type LiveScanLimit } from './modules/scans/live-frames.service.ts';
import { createScansService, type ScanFailureLimit } from './modules/scans/scans.service.ts';
import { createSenderAuthService } from './modules/sender-auth/sender-auth.service.ts';
import { createStaffAuthService } from './modules/staff/staff-auth.service.ts';
import { createStaffService } from './modules/staff/staff.service.ts';
import { createStaffMerchantsService } from './modules/staff/staff-merchants.service.ts';
import { senderGuard } from './modules/sender-auth/sender-session.ts';
import { createUploadsService } from './modules/uploads/uploads.service.ts';
import { createMerchantsService } from './modules/merchants/merchants.service.ts';
import { createRecordLinks } from './modules/merchants/record-links.ts';
import { webhookSecrets } from './modules/merchants/merchant-admin.ts';

/** The adapters and settings every module's service is built from (infrastructure.ts makes the adapters). */
export interface ServiceDeps {
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
  /** PUBLIC_ORIGIN: links in e-mails and the checkout's return point here. */
  publicOrigin: string;
  /** Gift recognition (enrolment at submit, scans, demo). */
  recogniser: Recogniser;
  /** Folders with the web app's public files (demo gift images). */
  demoImageDirs: string[];
  scanFailureLimit?: ScanFailureLimit;
  /** The sign-in codes' limits per client and per target; default CODE_LIMITS. */
  codeLimits?: CodeLimits;
  /** The live frames' rate and budget; default LIVE_SCAN. */
  liveScanLimit?: LiveScanLimit;
  /** The hosts push subscription endpoints may name (null: the browsers' push services). */
  push: { allowedHosts: string[] | null };
  /** Scheduled WhatsApp through the Cloud API (WHATSAPP_* set). */
  whatsappEnabled: boolean;
  /** ffmpeg, when installed: uploads are probed at confirm and converted by a job. */
  mediaProcessor: MediaProcessor | null;
  /** This process's scratch folder, where uploads are copied for ffprobe. */
  scratch: Scratch;
  /** Tells an in-process job runner that a job is due now. */
  wakeJobs?: () => void;
  /** This process's metrics (infrastructure.ts), when /metrics is on: live frames refused are counted. */
  metrics?: Metrics;
  /** STAFF_EMAILS: who may sign in to the staff console (none: no console). */
  staffEmails?: string[];
  /** WEBHOOK_ALLOW_HTTP_HOSTS: hosts a merchant's webhook URL may name over plain http (tests). */
  webhookAllowHttpHosts?: string[];
  /** Where the services say what an operator should know (a mail that could not go out). */
  log: (line: string) => void;
}

/** Every module's service the API calls, over the adapters: built once per server, top to bottom. */
export function createServices(deps: ServiceDeps) {
  const { db, media, clock, recogniser, sessionSecret, log, wakeJobs } = deps;
  // Every flow's sign-in codes share one set of per-client counts (memory or Redis) and limits (CODE_LIMITS).
  const codeDeps = { db, mailer: deps.mailer, clock, sessionSecret, log, codeWindow: createSlidingWindow(deps.rateLimitStore, 'gl:codes:'), codeLimits: deps.codeLimits, wakeJobs };
  const senderAuth = createSenderAuthService(codeDeps);
  const recipientAuth = createRecipientAuthService(codeDeps);
  const grants = createRevealGrants({ db, clock, secureCookies: deps.secureCookies });
  // Every paid gift's backup code, sealed under a key derived from SESSION_SECRET (decision 039).
  const backupCodes = createBackupCodes(sessionSecret);
  // Every message and reaction passes the same hostile-media gate before it is stored (decision 038).
  const gate = createMediaGate({ processor: deps.mediaProcessor, scratch: deps.scratch });
  const renders = deps.mediaProcessor !== null;
  const uploads = createUploadsService({ db, media, clock, gate, renders, wakeJobs, groupOpen: (ex, giftId) => contributionsOpen(ex, giftId, clock.now()) });
  const groupGifts = createGroupGiftsService({
    ...codeDeps,
    deadlineWindow: createSlidingWindow(deps.rateLimitStore, 'gl:deadline:'),
    media,
    publicOrigin: deps.publicOrigin,
    uploads: uploads.shared,
    renders,
    wakeJobs,
  });
  const messages = createMessagesService({ db, media, clock, group: (gift) => groupGifts.revealed(gift) });
  // What both kinds of scan (process-scan and live frames) decide and reveal with (scan-core.ts).
  const scanCore = { db, media, clock, recogniser, messages, grants };
  const gifts = createGiftsService({ db, media, clock, recogniser, backupCodes });
  const merchantDeps = { webhookAllowHttpHosts: deps.webhookAllowHttpHosts ?? [], secrets: webhookSecrets(sessionSecret) };
  return {
    senderAuth,
    recipientAuth,
    requireSender: senderGuard((token) => senderAuth.senderForToken(token)),
    requireRecipient: recipientGuard((token) => recipientAuth.recipientForToken(token)),
    grants,
    gifts,
    uploads,
    groupGifts,
    payments: createPaymentsService({ db, providers: deps.payments, clock, publicOrigin: deps.publicOrigin, backupCodes }),
    deliveries: createDeliveriesService({ db, clock, whatsappEnabled: deps.whatsappEnabled, wakeJobs }),
    myGifts: createMyGiftsService({ db, media, clock, backupCodes }),
    giftCard: createGiftCardService({ db, backupCodes, publicOrigin: deps.publicOrigin }),
    reminders: createRemindersService({ db, clock }),
    push: createPushService({ db, clock, allowedHosts: deps.push.allowedHosts ?? DEFAULT_PUSH_SERVICE_HOSTS }),
    messages,
    scans: createScansService({ ...scanCore, failureLimit: deps.scanFailureLimit, backupCodes }),
    // Live frames: counted in the rate-limit store (memory or Redis), never the database.
    liveFrames: createLiveFramesService({
      ...scanCore,
      window: createSlidingWindow(deps.rateLimitStore, 'gl:live:'),
      limit: deps.liveScanLimit,
      onRefused: deps.metrics?.liveFrameRefused,
    }),
    reactions: createReactionsService({ db, media, clock, gate, renders, wakeJobs }),
    demo: createDemoService({ recogniser, dirs: deps.demoImageDirs }),
    // The staff console (decision 051): only where STAFF_EMAILS names someone.
    staffAuth: createStaffAuthService({ ...codeDeps, staffEmails: deps.staffEmails ?? [] }),
    staff: createStaffService({ db, media, clock, payments: deps.payments, wakeJobs, log, staffEmails: deps.staffEmails ?? [] }),
    staffMerchants: createStaffMerchantsService({ db, media, clock, ...merchantDeps }),
    // The merchant API and the buyer's record link (decision 058).
    merchants: createMerchantsService({ db, media, clock, gifts, uploads, links: createRecordLinks(sessionSecret, deps.publicOrigin), publicOrigin: deps.publicOrigin, whatsappEnabled: deps.whatsappEnabled, wakeJobs }),
  };
}

export type Services = ReturnType<typeof createServices>;

/** What the jobs' services are built from: the adapters, the matcher (rating old photos) and a log. */
export type JobDeps = Omit<JobHandlerDeps, 'backupCodes' | 'housekeeping'> & {
  retention?: HousekeepingDeps['retention'];
  /** One housekeeping run's time budget (HOUSEKEEPING_BUDGET_MS). */
  housekeepingBudgetMs?: number;
  /**
   * The matcher, for housekeeping to rate photos enrolled before the rating existed and to enrol again those of an
   * older recipe (none: they stay as they are).
   */
  recogniser?: Recogniser | null;
};

/** Every job kind's handler with the services they run (housekeeping, backup codes): the server's and the worker's. */
export function jobHandlers({ sessionSecret, retention, housekeepingBudgetMs, recogniser, ...deps }: JobDeps) {
  const housekeeping = createHousekeepingService({
    db: deps.db,
    media: deps.media,
    clock: deps.clock,
    log: deps.log,
    retention,
    budgetMs: housekeepingBudgetMs,
    recogniser: recogniser ?? null,
    scratch: deps.scratch,
  });
  return createJobHandlers({ ...deps, sessionSecret, backupCodes: createBackupCodes(sessionSecret), housekeeping });
}

/** One lane of the job runner: the kinds it claims, how many at a time, and whether senders take turns in it. */
export type JobLane = Required<Pick<JobRunnerOptions, 'concurrency' | 'kinds' | 'fair'>>;

/**
 * The job runner's lanes, as startJobs runs them. Renders in lanes of their own: a long ffmpeg never delays a delivery
 * or a notice; a single message's conversion (RENDER_CONCURRENCY, default 1) never waits behind a combined group video
 * (GROUP_RENDER_CONCURRENCY, default 1); and in the single messages' lane senders take turns, so one sender's many
 * conversions never hold another's single message behind all of theirs (issue 37).
 */
export function jobLanes(config: Pick<Config, 'jobConcurrency' | 'renderConcurrency' | 'groupRenderConcurrency'>): JobLane[] {
  const lanes: JobLane[] = [{ concurrency: config.jobConcurrency, kinds: { except: FFMPEG_KINDS }, fair: false }];
  if (config.renderConcurrency > 0) lanes.push({ concurrency: config.renderConcurrency, kinds: { only: RENDER_LANE_KINDS }, fair: true });
  if (config.groupRenderConcurrency > 0) lanes.push({ concurrency: config.groupRenderConcurrency, kinds: { only: COMBINED_LANE_KINDS }, fair: false });
  return lanes;
}

/**
 * Starts the job runner on this process (`npm start` with RUN_JOBS, or `npm run worker`): every job kind, and the
 * recurring housekeeping.
 */
export async function startJobs(infra: Infrastructure, config: Config, log: JobLog): Promise<JobRunner> {
  const handlers = jobHandlers({ ...infra, publicOrigin: config.publicOrigin, log, housekeepingBudgetMs: config.housekeepingBudgetMs, webhookAllowHttpHosts: config.webhookAllowHttpHosts, wakeJobs: () => runner.wake() });
  const lanes = jobLanes(config).map((lane) => createJobRunner({ db: infra.db, clock: infra.clock, log, handlers, observer: infra.metrics.jobs, ...lane }));
  const runner = combineRunners(lanes);
  await scheduleHousekeeping(infra.db, infra.clock);
  runner.start();
  return runner;
}
