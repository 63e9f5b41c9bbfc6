import { SCAN_BUSY_STATUS } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import type { onRequestHookHandler } from 'fastify';
import {
  BUSY_RETRY_AFTER_S,
  isUnreadableImage,
  type MatchDecision,
  type Recogniser,
  RecogniserBusyError,
  type ReferenceInput,
} from '../../adapters/recogniser.ts';
import { AppError } from '../../lib/errors.ts';
import { scanUnreadable } from '../../lib/scan-photo.ts';

/** The matcher is saturated: 503 with Retry-After (contract: ScanBusyBody). Nothing about the scan is counted. */
export const scanBusy = (retryAfter: number) =>
  new AppError(SCAN_BUSY_STATUS, 'scan_busy', texts.recipient.scanBusy, { retryAfter });

/**
 * A scan route's first hook: while the matcher's queue is full, answer 503 before the photo is read, the rate
 * limit is counted (the route's own rate-limit hook runs after this one) or the database is touched. The
 * recogniser checks again when the match is queued (a scan can pass here and still find the queue full then).
 */
export function scanAdmission(recogniser: Pick<Recogniser, 'busy'>): onRequestHookHandler {
  return (_request, _reply, done) => done(recogniser.busy() ? scanBusy(BUSY_RETRY_AFTER_S) : undefined);
}

/**
 * A live frame route's first hook: explicit scans have priority, so a live frame is refused (503, the same body)
 * as soon as the matcher has any queue, before anything is read or counted. `matchLive` checks again.
 */
export function liveFrameAdmission(recogniser: Pick<Recogniser, 'queued'>, onRefused?: (reason: 'busy') => void): onRequestHookHandler {
  return (_request, _reply, done) => {
    if (!recogniser.queued()) return done();
    onRefused?.('busy');
    done(scanBusy(BUSY_RETRY_AFTER_S));
  };
}

/** The matcher's answer, with its refusals as the scan's HTTP errors (unreadable photo 400, saturated 503). */
export async function matchScan(
  recogniser: Recogniser,
  scan: Buffer,
  references: ReferenceInput[][],
  opts: { live?: boolean } = {},
): Promise<MatchDecision> {
  try {
    return await (opts.live ? recogniser.matchLive(scan, references) : recogniser.match(scan, references));
  } catch (err) {
    if (isUnreadableImage(err)) throw scanUnreadable();
    if (err instanceof RecogniserBusyError) throw scanBusy(err.retryAfter);
    throw err;
  }
}
