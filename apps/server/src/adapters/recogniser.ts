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
  /** references[i] holds candidate i's 1-3 enrolled references; bestIndex points into it. */
  match(query: Buffer | Uint8Array, references: Uint8Array[][]): Promise<MatchDecision>;
  close(): Promise<void>;
}

/**
 * The matcher in a worker-thread pool, so feature extraction never blocks the event loop. By default the pool
 * starts on first use (a process that never enrols or scans pays nothing); `eager` starts it at once, so the
 * workers' warm-up (seconds) is not paid by the first recipient.
 */
export function createMatcherRecogniser(opts: { size?: number; eager?: boolean } = {}): Recogniser {
  let pool: ReturnType<typeof createMatcherPool> | undefined;
  const get = () => (pool ??= createMatcherPool(opts.size === undefined ? {} : { size: opts.size }));
  if (opts.eager) get();
  return {
    enrol: (image) => get().enrol(image),
    match: (query, references) => get().match(query, references),
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
