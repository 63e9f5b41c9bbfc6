import { MB } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
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
  if (!scan) throw scanUnreadable();
  await assertScanPhoto(scan);
  return { scan, fields };
}

/** A scan photo's own checks (after the multipart's 2 MB): a JPEG, PNG or WebP by its bytes, within the pixel limit. */
export async function assertScanPhoto(scan: Buffer): Promise<void> {
  if (scan.length === 0 || scan.length > SCAN_MAX_BYTES) throw scan.length ? scanTooLarge() : scanUnreadable();
  const type = await fileTypeFromBuffer(scan);
  if (!type || !SCAN_TYPES.has(type.mime)) throw scanUnreadable();
  // 2 MB of PNG can declare 16000×16000: refused from its header, before the matcher decodes it.
  if ((await pixelsOverLimit(scan)) !== null) throw scanTooLarge();
}
