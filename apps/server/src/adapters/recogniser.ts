import { availableParallelism } from 'node:os';
import {
  createMatcherPool,
  type EnrolResult,
  type MatchDecision,
  MatcherError,
} from '@giftlens/matcher/index';

export type { EnrolResult, MatchDecision };

/** Gift recognition: enrol a reference photo, decide whether a query photo shows one of the candidates. */
export interface Recogniser {
  enrol(image: Buffer | Uint8Array): Promise<EnrolResult>;
  /**
   * references[i] holds candidate i's 1-3 enrolled references; bestIndex points into it. Rejects with
   * `RecogniserBusyError`, at once and without running anything, when the matcher's queue is full.
   */
  match(query: Buffer | Uint8Array, references: Uint8Array[][]): Promise<MatchDecision>;
  /** True while a new scan would be refused: every worker busy and the queue full. */
  busy(): boolean;
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
 * Scans allowed to wait per worker, beyond the one each is running. A scan costs ~75 ms of CPU, so with 2 waiting
 * per worker an accepted scan waits at most ~2 scans' time before it runs: p99 stays well under 500 ms at 16
 * concurrent clients on a 2-core machine, where an unbounded queue gave 2.1-2.3 s (figures: decision 023,
 * `npm run bench:api`).
 */
export const QUEUE_PER_WORKER = 2;
/** What a refused client is told to wait: the queue drains in well under a second. */
export const BUSY_RETRY_AFTER_S = 1;

/**
 * The matcher in a worker-thread pool, so feature extraction never blocks the event loop. By default the pool
 * starts on first use (a process that never enrols or scans pays nothing); `eager` starts it at once, so the
 * workers' warm-up (seconds) is not paid by the first recipient.
 *
 * Admission control: at most `size × (1 + queuePerWorker)` tasks are running or queued. A scan beyond that is
 * refused at once (RecogniserBusyError) instead of queueing behind the others, so the scans that are accepted keep a
 * short wait. Enrolments (a sender's submit) are never refused, but they occupy the pool and count.
 */
export function createMatcherRecogniser(
  opts: { size?: number; eager?: boolean; queuePerWorker?: number } = {},
): Recogniser {
  const size = Math.max(1, Math.floor(opts.size ?? availableParallelism()));
  const capacity = size * (1 + Math.max(0, Math.floor(opts.queuePerWorker ?? QUEUE_PER_WORKER)));
  let pool: ReturnType<typeof createMatcherPool> | undefined;
  let pending = 0;
  const get = () => (pool ??= createMatcherPool({ size }));
  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    pending++;
    try {
      return await work();
    } finally {
      pending--;
    }
  };
  if (opts.eager) get();
  return {
    enrol: (image) => track(() => get().enrol(image)),
    match: (query, references) => {
      if (pending >= capacity) return Promise.reject(new RecogniserBusyError(BUSY_RETRY_AFTER_S));
      return track(() => get().match(query, references));
    },
    busy: () => pending >= capacity,
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
