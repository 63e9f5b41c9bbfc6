import { availableParallelism } from 'node:os';
import {
  createMatcherPool,
  type EnrolResult,
  type MatchDecision,
  MatcherError,
  MOVE_CLOSER_BELOW,
  REFERENCE_RECIPE,
  type ReferenceInput,
  type ReferenceLoader,
} from '@giftlens/matcher/index';

export type { EnrolResult, MatchDecision, ReferenceInput, ReferenceLoader };
export { MOVE_CLOSER_BELOW, REFERENCE_RECIPE };

/** Gift recognition: enrol a reference photo, decide whether a query photo shows one of the candidates. */
export interface Recogniser {
  enrol(image: Buffer | Uint8Array): Promise<EnrolResult>;
  /**
   * references[i] holds candidate i's 1-3 enrolled references; bestIndex points into it. A reference given by key
   * (`{ key, load }`, a photo's id) is kept in the matcher's workers, so a later scan sends only the key; its `load`
   * gives the bytes when a worker lacks them (decision 045). Rejects with `RecogniserBusyError`, at once and without running
   * anything, when the matcher's queue is full.
   */
  match(query: Buffer | Uint8Array, references: ReferenceInput[][]): Promise<MatchDecision>;
  /**
   * Whether a scan could not tell the enrolled `reference` from any of `others` (two identical boxes), in the
   * pool like enrolment: never refused, but it occupies a worker.
   */
  lookalike(reference: Uint8Array, others: Uint8Array[]): Promise<boolean>;
  /** True while a new scan would be refused: every worker busy and the queue full (live frames not counted). */
  busy(): boolean;
  /**
   * A live frame: matched only on a worker that is idle now, so it never waits in the queue nor takes a
   * queue place from an explicit scan. Rejects with `RecogniserBusyError` at once when `queued()`.
   */
  matchLive(query: Buffer | Uint8Array, references: ReferenceInput[][]): Promise<MatchDecision>;
  /** True while every worker is occupied, so a new task would have to queue: live frames are refused then. */
  queued(): boolean;
  /** Tasks (scans, frames, enrolments) waiting for a worker now, beyond those running (metrics); a fake may leave it out. */
  waiting?(): number;
  close(): Promise<void>;
}

/** A scan refused because the matcher is saturated: the caller answers 503 with `Retry-After: retryAfter`. */
export class RecogniserBusyError extends Error {
  constructor(readonly retryAfter: number) {
    super('The matcher is busy');
    this.name = 'RecogniserBusyError';
  }
}

/**
 * How long an accepted scan may wait for a worker. The queue holds as many scans as the workers get through in this
 * time, at the scan cost measured lately: ~75 ms on an idle 2-core machine gives 6 queued beside the 2 running, so an
 * accepted scan answers within ~250 ms + its own matching; on a loaded machine (a scan at 200 ms) the queue shrinks
 * to 2. An unbounded queue gave p99 2.1-2.3 s at 16 concurrent (figures: `npm run bench:api`, decision 023).
 */
export const QUEUE_WAIT_BUDGET_MS = 250;
/** The scan cost assumed before any was measured (the figure first measured on the reference machine). */
const INITIAL_SCAN_MS = 75;
/** Weight of the newest scan in the moving average of the scan cost. */
const SCAN_MS_WEIGHT = 0.2;
/** What a refused client is told to wait: the queue drains within the budget above. */
export const BUSY_RETRY_AFTER_S = 1;

export interface MatcherRecogniserOptions {
  /** worker threads; default: the number of cores */
  size?: number;
  eager?: boolean;
  /** A fixed queue length instead of the one sized from the measured scan cost (tests). */
  queue?: number;
}

/**
 * The matcher in a worker-thread pool, so feature extraction never blocks the event loop. By default the pool
 * starts on first use (a process that never enrols or scans pays nothing); `eager` starts it at once, so the
 * workers' warm-up (seconds) is not paid by the first recipient.
 *
 * Admission control: at most `size` running plus a bounded queue (at least one, so no worker idles between two
 * scans; see QUEUE_WAIT_BUDGET_MS). A scan beyond that is refused at once (RecogniserBusyError) instead of waiting
 * behind the others, so the accepted ones keep a short wait. Enrolments (a sender's submit) are never refused, but
 * they occupy the pool and count.
 *
 * Live frames have the lowest priority: one is admitted only while a worker is idle (it starts at once, never
 * queues), and explicit scans' admission does not count them. At most `size` frames run, so an explicit scan
 * waits at most one frame's matching longer and is never refused because of live traffic.
 */
export function createMatcherRecogniser(opts: MatcherRecogniserOptions = {}): Recogniser {
  const size = Math.max(1, Math.floor(opts.size ?? availableParallelism()));
  let pool: ReturnType<typeof createMatcherPool> | undefined;
  /** tasks in the pool (running or queued), and how many of them are live frames */
  let pending = 0;
  let livePending = 0;
  let scanMs = INITIAL_SCAN_MS;
  const queueLength = () =>
    opts.queue ?? Math.max(1, Math.floor((size * QUEUE_WAIT_BUDGET_MS) / Math.max(1, scanMs)));
  const full = () => pending - livePending >= size + queueLength();
  const queued = () => pending >= size;
  const get = () => (pool ??= createMatcherPool({ size }));
  const track = async <T>(work: () => Promise<T>, live = false): Promise<T> => {
    pending++;
    if (live) livePending++;
    try {
      return await work();
    } finally {
      pending--;
      if (live) livePending--;
    }
  };
  const match = async (query: Buffer | Uint8Array, references: ReferenceInput[][], live: boolean) => {
    const decision = await track(() => get().match(query, references), live);
    scanMs += SCAN_MS_WEIGHT * (decision.ms - scanMs);
    return decision;
  };
  if (opts.eager) get();
  return {
    enrol: (image) => track(() => get().enrol(image)),
    lookalike: (reference, others) => (others.length === 0 ? Promise.resolve(false) : track(() => get().lookalike(reference, others))),
    match: async (query, references) => {
      if (full()) throw new RecogniserBusyError(BUSY_RETRY_AFTER_S);
      return match(query, references, false);
    },
    matchLive: async (query, references) => {
      if (queued()) throw new RecogniserBusyError(BUSY_RETRY_AFTER_S);
      return match(query, references, true);
    },
    busy: full,
    queued,
    waiting: () => Math.max(0, pending - size),
    async close() {
      const p = pool;
      pool = undefined;
      if (p) await p.close();
    },
  };
}

/** True when the photo itself is the problem (undecodable, too small), not the server. */
export function isUnreadableImage(err: unknown): boolean {
  if (err instanceof MatcherError) return err.code === 'unreadable_image' || err.code === 'image_too_small';
  // Errors crossing a worker boundary may lose their class but keep name and code.
  const e = err as { name?: unknown; code?: unknown } | null;
  return e?.name === 'MatcherError' && (e.code === 'unreadable_image' || e.code === 'image_too_small');
}
