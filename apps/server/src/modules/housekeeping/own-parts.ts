import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import { DEFAULT_RETENTION } from './housekeeping.service.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Uploads are staged as `.part` files on the node that receives them (DATA_DIR/media/.tmp, with media on S3 too),
 * and housekeeping removes the stale ones only where it runs: in the process that runs jobs. An API node that runs
 * none (RUN_JOBS=false, beside workers) removes its own here: at start, then every `everyMs`, the parts older than
 * housekeeping's own limit (6 hours). Returns a function that stops the timer.
 */
export function sweepOwnStaleParts(opts: {
  media: Pick<MediaStorage, 'removeStaleParts'>;
  clock: Clock;
  log: { info(line: string): void; warn(line: string): void };
  everyMs?: number;
  olderThanMs?: number;
}): () => void {
  const { media, clock, log, everyMs = HOUR_MS, olderThanMs = DEFAULT_RETENTION.stalePartMs } = opts;
  const sweep = () =>
    media.removeStaleParts(olderThanMs, clock.now()).then(
      (removed) => {
        if (removed > 0) log.info(`housekeeping: removed ${removed} stale upload part(s) of this node`);
      },
      (err: unknown) => log.warn(`housekeeping: could not sweep this node's upload parts (${err instanceof Error ? err.message : String(err)})`),
    );
  void sweep();
  const timer = setInterval(() => void sweep(), everyMs).unref();
  return () => clearInterval(timer);
}
