import {
  RECIPIENT_RESEND_COOLDOWN_S,
  ORDER_RECORD_YEARS,
  SCAN_FAILURE_LIMIT,
  SENDER_RESEND_COOLDOWN_S,
  UPLOAD_CONFIRM_GRACE_MS,
} from '@giftlens/contract/constants';
import { PLANS } from '@giftlens/contract/plans';
import type { Clock } from '../../adapters/clock.ts';
import { everyStoredKeyFor } from '../../adapters/media-formats.ts';
import { type MediaStorage, withLandingKeys } from '../../adapters/media-storage.ts';
import { type EnrolResult, type Recogniser, REFERENCE_RECIPE } from '../../adapters/recogniser.ts';
import type { Scratch } from '../../adapters/scratch.ts';
import { type Db, eraseDeletedFromDisk } from '../../db/database.ts';
import { buffer } from 'node:stream/consumers';
import { deleteOldJobs, endedJobsWithLeftovers, endedJobsWithLeftoversLeft, markLeftoversSwept, oldJobsLeft } from '../../jobs/jobs.repository.ts';
import * as auth from '../auth/auth.repository.ts';
import { deleteGifts, listGiftFiles } from '../gift-deletion/gift-deletion.ts';
import * as giftCleanup from '../gifts/gift-cleanup.repository.ts';
import { photosOfOlderRecipe, photosOfOlderRecipeLeft, ratePhoto, reenrolPhoto, unratedPhotos, unratedPhotosLeft } from '../gifts/gift-photos.repository.ts';
import * as payments from '../payments/payments.repository.ts';
import { groupPathsAmong, purgeGroupContent } from '../group-gifts/group-gifts.repository.ts';
import { reactionPathsAmong } from '../reactions/reactions.repository.ts';
import { RENDER_JOB_KINDS, renditionKeys } from '../renditions/renditions.jobs.ts';
import { deleteExpiredGrants, expiredGrantsLeft } from '../reveal-grants/reveal-grants.repository.ts';
import { deleteOldScanFailures, oldScanFailuresLeft } from '../scans/scans.repository.ts';
import * as uploads from '../uploads/uploads.repository.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Of these storage paths, the ones a row still names: a message, its poster, a photo, an upload, a reaction, a contribution. */
async function referencedPaths(db: Db, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const found = await Promise.all([
    giftCleanup.giftPathsAmong(db, paths),
    uploads.intentPathsAmong(db, paths),
    reactionPathsAmong(db, paths),
    groupPathsAmong(db, paths),
  ]);
  return new Set(found.flat().map((r) => r.path).filter((p): p is string => p !== null));
}

/** How long each kind of row outlives its usefulness before it is deleted (docs/decisions/008-housekeeping.md). */
export interface Retention {
  /** A gift never paid and untouched (gift, upload, order) for this long goes, with its files. */
  unpaidGiftMs: number;
  /**
   * This long after a Basic or Premium plan ends, the gift's message, text, photos and recognition data go (the
   * privacy page promises within 30 days); the gift row and its payment stay.
   */
  endedPlanContentMs: number;
  /**
   * An upload intent this long past its URL's expiry goes, with its file unless a gift uses it. Must exceed the
   * confirm grace (UPLOAD_CONFIRM_GRACE_MS), or a confirm could store a path whose file is being deleted.
   */
  expiredUploadMs: number;
  /** A verification code this long past its expiry goes. */
  expiredCodeMs: number;
  /** A resend slot older than this no longer blocks anything (the longest cooldown). */
  resendCooldownMs: number;
  /** Failed scans older than the rate-limit window no longer count. */
  scanFailureWindowMs: number;
  /** Webhook event ids are kept this long to recognise replays. */
  webhookEventMs: number;
  /** A finished (done or cancelled) job is kept this long, for the record. */
  finishedJobMs: number;
  /** A dead job is kept this long with its last error, for an operator to look at. */
  deadJobMs: number;
  /**
   * The order of a deleted gift (amount, date, provider ids: no name, e-mail or message) is kept this long after
   * payment, as tax and accounting law asks (India: 8 years), then deleted. The privacy page says so.
   */
  accountingOrderMs: number;
  /** A partial upload untouched this long belongs to a process that died mid-upload. */
  stalePartMs: number;
  /**
   * A render job ended this long ago: nothing of it can still be writing (each ffmpeg run is stopped after 10
   * minutes), so a rendition one of its attempts stored and no row names is an orphan (decision 034). Also the
   * age of a render's scratch folder on this machine left by a killed process.
   */
  renderLeftoverMs: number;
}

export const DEFAULT_RETENTION: Retention = {
  unpaidGiftMs: 7 * DAY_MS,
  endedPlanContentMs: 7 * DAY_MS,
  expiredUploadMs: DAY_MS,
  expiredCodeMs: DAY_MS,
  resendCooldownMs: Math.max(SENDER_RESEND_COOLDOWN_S, RECIPIENT_RESEND_COOLDOWN_S) * 1000,
  scanFailureWindowMs: SCAN_FAILURE_LIMIT.windowMs,
  webhookEventMs: 30 * DAY_MS,
  finishedJobMs: 7 * DAY_MS,
  deadJobMs: 30 * DAY_MS,
  accountingOrderMs: ORDER_RECORD_YEARS * 366 * DAY_MS,
  stalePartMs: 6 * HOUR_MS,
  renderLeftoverMs: 6 * HOUR_MS,
};

/** What one run removed. */
export interface HousekeepingReport {
  unpaidGifts: number;
  endedGifts: number;
  uploadIntents: number;
  verificationCodes: number;
  codeResends: number;
  sessions: number;
  revealGrants: number;
  scanFailures: number;
  webhookEvents: number;
  jobs: number;
  orders: number;
  staleParts: number;
  /** Renditions (and posters, and originals) left by killed render attempts, and stale render scratch folders. */
  renderLeftovers: number;
  /** Photos enrolled before the recognisability rating existed, rated now. */
  photoRatings: number;
  /** Photos whose features an older matcher recipe enrolled (before decision 053's tilted views), enrolled again now. */
  photoFeatures: number;
  filesDeleted: number;
  filesFailed: number;
  /**
   * What was still due when the run's time budget ran out, per task (rows, or files for renderLeftovers, each counted
   * up to LEFT_CAP): empty when the run finished everything. The next run then comes a minute later, not an hour.
   */
  left: Partial<Record<HousekeepingTask, number>>;
}

/** A task of a run, by the count it reports. */
export type HousekeepingTask = Exclude<keyof HousekeepingReport, 'filesDeleted' | 'filesFailed' | 'left'>;

/** A report of a run that removed nothing (every count 0). */
export function emptyReport(): HousekeepingReport {
  return {
    unpaidGifts: 0,
    endedGifts: 0,
    uploadIntents: 0,
    verificationCodes: 0,
    codeResends: 0,
    sessions: 0,
    revealGrants: 0,
    scanFailures: 0,
    webhookEvents: 0,
    jobs: 0,
    orders: 0,
    staleParts: 0,
    renderLeftovers: 0,
    photoRatings: 0,
    photoFeatures: 0,
    filesDeleted: 0,
    filesFailed: 0,
    left: {},
  };
}

/** The sum of a report's `left`. */
export const leftTotal = (report: Pick<HousekeepingReport, 'left'>) => Object.values(report.left).reduce((a, b) => a + b, 0);

export interface HousekeepingLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface HousekeepingDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  log: HousekeepingLog;
  retention?: Partial<Retention>;
  /** Gifts (with their files) and upload targets per transaction, and ended render jobs per leftover check. */
  batchSize?: number;
  /**
   * Rows per statement of the single-table sweeps (codes, sessions, grants, jobs …): rows only, no files, each
   * statement an index range, so a large batch costs little more than a small one and an hour's expiries go in a few.
   */
  rowBatchSize?: number;
  /**
   * How long one run keeps going (default 400 ms, HOUSEKEEPING_BUDGET_MS): every task takes one batch, then each
   * whose last batch came back full takes another, round after round, until none has more or the budget is spent.
   * What is left is reported (and the job runs again a minute later), so a backlog is worked off in short runs and a
   * steady inflow never piles up.
   */
  budgetMs?: number;
  /** Milliseconds of a monotonic clock (tests pass their own); the budget is wall time, not the injected Clock. */
  timer?: () => number;
  /**
   * This process's scratch (render and probe folders): what processes of this machine that no longer run left there
   * goes, and this process's own unheld leftovers; another running process's folder is never touched.
   */
  scratch?: Scratch | null;
  /** The matcher, to rate photos enrolled before the rating existed; without it they are left unrated. */
  recogniser?: Pick<Recogniser, 'enrol'> | null;
  /**
   * Unrated photos rated per run at most, in batches of 20: each costs one enrolment (0.1-0.15 s of a matcher
   * worker), so a batch outlasts the run's time budget and a run takes one; while photos are left the next run comes
   * a minute later (HOUSEKEEPING_FOLLOW_UP_MS). A backlog goes at about 20 a minute, ~3 s of one worker a minute,
   * without crowding out scans (each enrolment is a task of its own in the matcher's queue).
   */
  photoRatingsPerRun?: number;
  /** Photos of an older matcher recipe enrolled again per run at most, in batches of 20, paced the same way. */
  photoFeaturesPerRun?: number;
}

/** One run's default time budget (HOUSEKEEPING_BUDGET_MS). */
export const DEFAULT_HOUSEKEEPING_BUDGET_MS = 400;

/**
 * One batch of a task: how many rows (or files) it removed, and whether more may be due (its batch came back full).
 * `left` counts what is still due, asked only of a task the budget stopped.
 */
interface Task {
  name: HousekeepingTask;
  step: () => Promise<{ done: number; more: boolean }>;
  left?: () => Promise<number>;
}

/** Rows per single-table sweep statement (decision 044: at a million gifts about 40,000 codes expire an hour). */
export const DEFAULT_ROW_BATCH = 2000;

/** Photos read per query by the tasks that enrol stored photos again (photoRatings, photoFeatures). */
const ENROL_BATCH = 20;

/**
 * Deletes what nobody can use any more. Every task re-reads the current state, works in bounded batches and
 * deletes rows (in a transaction) before their files, so running twice, or in two processes, is harmless and no
 * row ever points at a missing file. Nothing of a paid (active) gift is touched.
 */
export function createHousekeepingService({
  db,
  media,
  clock,
  log,
  retention,
  batchSize = 200,
  rowBatchSize = DEFAULT_ROW_BATCH,
  budgetMs = DEFAULT_HOUSEKEEPING_BUDGET_MS,
  timer = () => performance.now(),
  scratch = null,
  recogniser = null,
  photoRatingsPerRun = 100,
  photoFeaturesPerRun = 100,
}: HousekeepingDeps) {
  const keep: Retention = { ...DEFAULT_RETENTION, ...retention };
  if (keep.expiredUploadMs <= UPLOAD_CONFIRM_GRACE_MS)
    throw new Error('expiredUploadMs must exceed the upload confirm grace');

  /** A file that will not go is logged and left: the next run does not know it, but nothing points at it. */
  async function deleteKeys(keys: string[], report: HousekeepingReport): Promise<number> {
    let deleted = 0;
    for (const key of keys) {
      try {
        await media.delete(key);
        report.filesDeleted++;
        deleted++;
      } catch (err) {
        report.filesFailed++;
        log.warn({ err, key }, 'housekeeping: could not delete a media file');
      }
    }
    return deleted;
  }
  const deleteFiles = (paths: string[], report: HousekeepingReport) => deleteKeys(withLandingKeys(media, paths), report);

  const before = (ms: number) => new Date(clock.now().getTime() - ms).toISOString();
  const nowIso = () => clock.now().toISOString();

  /** A task whose batch is one call removing up to `size` rows (a single-table sweep's rowBatchSize by default). */
  const sweep = (name: HousekeepingTask, batch: () => Promise<number>, left: () => Promise<number>, size = rowBatchSize): Task => ({
    name,
    step: async () => {
      const done = await batch();
      return { done, more: done >= size };
    },
    left,
  });

  function unpaidGifts(): Task {
    const cutoff = before(keep.unpaidGiftMs);
    // Not paid or touched since the cutoff: an order and an upload intent are activity too.
    const activity: giftCleanup.GiftCondition[] = [
      (eb) => payments.orderPaidOrTouchedSince(eb, cutoff),
      (eb) => uploads.intentMadeSince(eb, cutoff),
    ];
    // Deleted the one way a gift is (modules/gift-deletion): its files go by the media.delete job queued with it.
    return sweep(
      'unpaidGifts',
      () =>
        db.transaction().execute(async (trx) => {
          const ids = await giftCleanup.lockStaleUnpaidGifts(trx, cutoff, batchSize, activity);
          return deleteGifts(trx, ids, clock.now(), { onlyUnpaid: true });
        }),
      () => giftCleanup.staleUnpaidGiftsLeft(db, cutoff, activity),
      batchSize,
    );
  }

  /** Gifts whose time-limited plan ended: only their content goes (the plan's scans are refused already). */
  function endedGifts(report: HousekeepingReport): Task[] {
    return PLANS.filter((plan) => plan.validityMs !== null).map((plan) => {
      const paidBefore = before(plan.validityMs! + keep.endedPlanContentMs);
      return sweep(
        'endedGifts',
        async () => {
          let files: string[] = [];
          const purged = await db.transaction().execute(async (trx) => {
            const ids = await giftCleanup.lockEndedGiftsWithContent(trx, plan.id, paidBefore, batchSize);
            files = await listGiftFiles(trx, ids);
            await uploads.deleteIntentsOfGifts(trx, ids);
            await purgeGroupContent(trx, ids, clock.now().toISOString());
            return giftCleanup.purgeGiftContent(trx, ids, clock.now().toISOString());
          });
          await deleteFiles(files, report);
          return purged;
        },
        () => giftCleanup.endedGiftsLeft(db, plan.id, paidBefore),
        batchSize,
      );
    });
  }

  function expiredUploads(report: HousekeepingReport): Task {
    const cutoff = before(keep.expiredUploadMs);
    return sweep(
      'uploadIntents',
      async () => {
        const intents = await db.transaction().execute(async (trx) => {
          const rows = await uploads.lockExpiredIntents(trx, cutoff, batchSize);
          await uploads.deleteIntents(
            trx,
            rows.map((r) => r.id),
          );
          return rows;
        });
        // Checked after the intents are gone, right before the files: a confirmed upload is a gift's message. An upload
        // whose bytes arrived but was never confirmed may have been stored under its sniffed type's name by a confirm
        // killed before its commit: those names are looked for (rare: abandoned uploads).
        const stored = intents.filter((r) => r.status === 'uploaded').flatMap((r) => everyStoredKeyFor(r.file_path));
        const found = (await Promise.all(stored.map(async (k) => ((await media.stat(k)) ? k : null)))).filter((k): k is string => k !== null);
        const paths = [...intents.map((r) => r.file_path), ...found];
        const used = await referencedPaths(db, paths);
        // Where the browser's bytes landed, when apart from the key (S3), is never a message: always removed.
        const landed = intents.map((r) => media.landingKey(r.file_path)).filter((k) => !paths.includes(k));
        await deleteFiles(
          [...paths.filter((p) => !used.has(p)), ...landed],
          report,
        );
        return intents.length;
      },
      () => uploads.expiredIntentsLeft(db, cutoff),
      batchSize,
    );
  }

  /**
   * What render attempts that were killed may have left in storage: each attempt's renditions of every job that
   * ended long enough ago after more than one attempt (or not done), and its original (a kill between the swap and
   * the original's removal), each only if no row names it; after the last page, the stale scratch folders. Counts
   * the files removed.
   */
  function renderLeftovers(report: HousekeepingReport): Task {
    const cutoff = before(keep.renderLeftoverMs);
    let after = '';
    return {
      name: 'renderLeftovers',
      async step() {
        const jobs = await endedJobsWithLeftovers(db, RENDER_JOB_KINDS, cutoff, after, batchSize);
        after = jobs.at(-1)?.id ?? after;
        const keysOf = new Map(
          jobs.map((job) => {
            const { key } = JSON.parse(job.payload) as { key: string };
            return [job.id, [key, ...Array.from({ length: job.attempts }, (_, a) => renditionKeys(key, job.id, a + 1)).flat()]];
          }),
        );
        const used = await referencedPaths(db, [...keysOf.values()].flat());
        // Asked first (all at once), so the count says what was there; a retried job is rare, so these are few.
        const presentOf = await Promise.all(
          [...keysOf].map(async ([jobId, keys]) => {
            const found = await Promise.all(keys.filter((k) => !used.has(k)).map(async (k) => ((await media.stat(k)) ? k : null)));
            return [jobId, found.filter((k): k is string => k !== null)] as const;
          }),
        );
        let done = 0;
        const swept: string[] = [];
        for (const [jobId, present] of presentOf) {
          const deleted = await deleteKeys(present, report);
          done += deleted;
          if (deleted === present.length) swept.push(jobId);
        }
        // Looked at once: these jobs leave the sweep's index; one whose file would not go stays for the next run.
        await markLeftoversSwept(db, swept, nowIso());
        const more = jobs.length >= batchSize;
        if (!more && scratch) done += await scratch.sweep(keep.renderLeftoverMs, clock.now());
        return { done, more };
      },
      left: () => endedJobsWithLeftoversLeft(db, RENDER_JOB_KINDS, cutoff, after),
    };
  }

  /**
   * Where each enrolling task's pass over the photos has got to: a run goes on after the last photo the run before
   * tried, and starts again from the first once a pass reached the end. Photos that cannot be read are so tried again
   * once a pass, never holding the others up.
   */
  const passes: Record<'photoRatings' | 'photoFeatures', string> = { photoRatings: '', photoFeatures: '' };

  /**
   * A task that enrols stored gift photos again, one batch of ENROL_BATCH at a time in id order, at most `perRun` a
   * run: `list` reads the next batch after an id, `write` stores what it needs of the enrolment (and counts 1 when it
   * wrote). A photo that cannot be read is logged (`failed`) and tried again on the next pass.
   */
  function enrolAgain(
    name: 'photoRatings' | 'photoFeatures',
    perRun: number,
    failed: string,
    list: (after: string, limit: number) => Promise<{ id: string; storage_path: string }[]>,
    left: (after: string) => Promise<number>,
    write: (id: string, enrolled: EnrolResult) => Promise<number>,
    signal?: AbortSignal,
  ): Task | null {
    if (!recogniser) return null;
    let after = passes[name];
    let tried = 0;
    return {
      name,
      async step() {
        const limit = Math.min(ENROL_BATCH, perRun - tried);
        const photos = await list(after, limit);
        // the end of the pass: the next run starts again from the first photo
        if (photos.length < limit) passes[name] = '';
        let done = 0;
        for (const photo of photos) {
          if (signal?.aborted) break;
          after = photo.id;
          if (photos.length >= limit) passes[name] = after;
          tried++;
          try {
            done += await write(photo.id, await recogniser.enrol(await buffer(await media.openRead(photo.storage_path))));
          } catch (err) {
            log.warn({ err, photoId: photo.id }, failed);
          }
        }
        return { done, more: photos.length >= ENROL_BATCH && tried < perRun };
      },
      left: () => left(after),
    };
  }

  /**
   * Rates photos enrolled before the rating existed (decision 031) the way enrolment does: the matcher's enrolment
   * of the stored photo, which is the normalised image enrolment was given. Only the quality columns are written
   * (the features the scans use stay), and only while the photo has no rating: running twice is harmless. At most
   * photoRatingsPerRun a run; counts those rated.
   */
  const photoRatings = (signal?: AbortSignal): Task | null =>
    enrolAgain(
      'photoRatings',
      photoRatingsPerRun,
      'housekeeping: could not rate a photo',
      (after, limit) => unratedPhotos(db, after, limit),
      (after) => unratedPhotosLeft(db, after),
      (id, { quality }) =>
        ratePhoto(db, id, {
          score: quality.score,
          recognisable: quality.recognisable,
          message: quality.message ?? null,
          rating: quality.rating,
          reasons: quality.reasons.join(','),
        }),
      signal,
    );

  /**
   * Photos whose features an older recipe of the matcher enrolled (REFERENCE_RECIPE; before decision 053 they lack the
   * tilted views) are enrolled again from their stored photo: only the features change, under a new worker cache key,
   * and only while they are older (running twice, or in two processes, is harmless). At most photoFeaturesPerRun a
   * run; counts those enrolled again.
   */
  const photoFeatures = (signal?: AbortSignal): Task | null =>
    enrolAgain(
      'photoFeatures',
      photoFeaturesPerRun,
      'housekeeping: could not enrol a photo again',
      (after, limit) => photosOfOlderRecipe(db, REFERENCE_RECIPE, after, limit),
      (after) => photosOfOlderRecipeLeft(db, REFERENCE_RECIPE, after),
      (id, { reference }) => reenrolPhoto(db, id, Buffer.from(reference), REFERENCE_RECIPE),
      signal,
    );

  return {
    retention: keep,

    /**
     * One run: every task takes a batch, then those whose batch came back full take another, round after round,
     * until none has more or `budgetMs` is spent (the first round always runs whole, so every task moves each run).
     * A task that fails is logged and left for the next run; the others go on.
     */
    async run(signal?: AbortSignal): Promise<HousekeepingReport> {
      const started = timer();
      const report = emptyReport();
      const finishedBefore = () => before(keep.finishedJobMs);
      const tasks: Task[] = [
        unpaidGifts(),
        ...endedGifts(report),
        expiredUploads(report),
        sweep(
          'verificationCodes',
          () => auth.deleteExpiredCodes(db, before(keep.expiredCodeMs), rowBatchSize),
          () => auth.expiredCodesLeft(db, before(keep.expiredCodeMs)),
        ),
        sweep(
          'codeResends',
          () => auth.deleteOldResends(db, before(keep.resendCooldownMs), rowBatchSize),
          () => auth.oldResendsLeft(db, before(keep.resendCooldownMs)),
        ),
        sweep('sessions', () => auth.deleteExpiredSessions(db, nowIso(), rowBatchSize), () => auth.expiredSessionsLeft(db, nowIso())),
        sweep('revealGrants', () => deleteExpiredGrants(db, nowIso(), rowBatchSize), () => expiredGrantsLeft(db, nowIso())),
        sweep(
          'scanFailures',
          () => deleteOldScanFailures(db, before(keep.scanFailureWindowMs), rowBatchSize),
          () => oldScanFailuresLeft(db, before(keep.scanFailureWindowMs)),
        ),
        sweep(
          'webhookEvents',
          () => payments.deleteOldWebhookEvents(db, before(keep.webhookEventMs), rowBatchSize),
          () => payments.oldWebhookEventsLeft(db, before(keep.webhookEventMs)),
        ),
        sweep(
          'jobs',
          () => deleteOldJobs(db, finishedBefore(), before(keep.deadJobMs), rowBatchSize),
          () => oldJobsLeft(db, finishedBefore(), before(keep.deadJobMs)),
        ),
        sweep(
          'orders',
          () => payments.deleteOldOrphanOrders(db, before(keep.accountingOrderMs), rowBatchSize),
          () => payments.oldOrphanOrdersLeft(db, before(keep.accountingOrderMs)),
        ),
        { name: 'staleParts', step: async () => ({ done: await media.removeStaleParts(keep.stalePartMs, clock.now()), more: false }) },
        renderLeftovers(report),
        ...[photoRatings(signal), photoFeatures(signal)].filter((t): t is Task => t !== null),
      ];

      let pending = tasks;
      for (let round = 0; pending.length > 0 && !signal?.aborted; round++) {
        if (round > 0 && timer() - started >= budgetMs) break;
        const next: Task[] = [];
        for (const task of pending) {
          if (signal?.aborted) break;
          // Past the budget, a task that has not had this round's batch keeps its place for the count of what is left.
          if (round > 0 && timer() - started >= budgetMs) {
            next.push(task);
            continue;
          }
          try {
            const { done, more } = await task.step();
            report[task.name] += done;
            if (more) next.push(task);
          } catch (err) {
            // One task failing (a locked table, a gift paid mid-batch) does not stop the others; the next run retries.
            log.error({ err, task: task.name }, 'housekeeping: task failed');
          }
        }
        pending = next;
      }

      // Whatever still had more when the budget ran out: how much is left, for the log and the next run's timing.
      for (const task of pending) {
        if (!task.left) continue;
        try {
          report.left[task.name] = (report.left[task.name] ?? 0) + (await task.left());
        } catch (err) {
          log.warn({ err, task: task.name }, 'housekeeping: could not count what is left');
        }
      }
      for (const [name, n] of Object.entries(report.left)) if (n === 0) delete report.left[name as HousekeepingTask];
      if (leftTotal(report) > 0) log.warn({ left: report.left, ms: Math.round(timer() - started), budgetMs }, 'housekeeping: budget spent with work left');

      // What the tasks deleted (and any account deletion whose own checkpoint found the WAL busy) leaves SQLite's WAL.
      try {
        if ((await eraseDeletedFromDisk(db)) === 'busy')
          log.warn({}, 'housekeeping: another process held the SQLite WAL; it is checkpointed again next run');
      } catch (err) {
        log.warn({ err }, 'housekeeping: could not checkpoint the SQLite WAL');
      }
      return report;
    },
  };
}

export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
