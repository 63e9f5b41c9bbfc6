import { MB } from '@giftlens/contract/constants';
import { SCAN_BUSY_STATUS } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import {
  BUSY_RETRY_AFTER_S,
  isUnreadableImage,
  type MatchDecision,
  type Recogniser,
  RecogniserBusyError,
  type ReferenceInput,
} from '../adapters/recogniser.ts';
import { AppError } from './errors.ts';
import { pixelsOverLimit } from './images.ts';
import { readMultipart } from './multipart.ts';

export const scanUnreadable = () => new AppError(400, 'scan_unreadable', texts.recipient.scanUnreadable);

export const SCAN_MAX_BYTES = 2 * MB;
const scanTooLarge = () => new AppError(413, 'scan_too_large', texts.recipient.scanTooLarge);
const SCAN_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

const scanRefusals = {
  invalid: scanUnreadable,
  fileTooLarge: scanTooLarge,
  tooMany: scanUnreadable,
  fieldTooLong: scanUnreadable,
};

/** Reads the multipart scan: the `scan` photo (JPEG, PNG or WebP by its bytes, at most 2 MB) and text fields. */
export async function readScan(request: FastifyRequest): Promise<{ scan: Buffer; fields: Record<string, string> }> {
  let scan: Buffer | undefined;
  const fields = await readMultipart(
    request,
    { fileSize: SCAN_MAX_BYTES, files: 1, fields: 10, fieldSize: 1000 },
    scanRefusals,
    async (part) => {
      if (part.fieldname === 'scan') scan = await part.toBuffer();
    },
  );
  if (!scan || scan.length === 0) throw scanUnreadable();
  const type = await fileTypeFromBuffer(scan);
  if (!type || !SCAN_TYPES.has(type.mime)) throw scanUnreadable();
  // 2 MB of PNG can declare 16000×16000: refused from its header, before the matcher decodes it.
  if ((await pixelsOverLimit(scan)) !== null) throw scanTooLarge();
  return { scan, fields };
}

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
export function liveFrameAdmission(recogniser: Pick<Recogniser, 'queued'>): onRequestHookHandler {
  return (_request, _reply, done) => done(recogniser.queued() ? scanBusy(BUSY_RETRY_AFTER_S) : undefined);
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
