import { GiftId } from '@giftlens/contract/common';
import { MB } from '@giftlens/contract/constants';
import { RECIPIENT_API, RM } from '@giftlens/contract/recipient';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import type { RequireRecipient } from '../recipient-auth/recipient-session.ts';
import type { RevealGrants } from './reveal-grants.ts';
import { scanUnreadable, type ScanOutcome, type ScansService } from './scans.service.ts';

export const SCAN_MAX_BYTES = 2 * MB;
const SCAN_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

const GiftParams = z.object({ giftId: GiftId });

const scanRefusals = {
  invalid: scanUnreadable,
  fileTooLarge: () => new AppError(413, 'scan_too_large', RM.scanTooLarge),
  tooMany: scanUnreadable,
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
  return { scan, fields };
}

export function scansRoutes(
  app: FastifyInstance,
  opts: {
    service: ScansService;
    grants: RevealGrants;
    requireRecipient: RequireRecipient;
    rateLimit: { max: number; timeWindow: number };
  },
) {
  const { service, grants, requireRecipient } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Matching costs CPU even when it succeeds (Lifetime gifts have unlimited reveals): every scan is limited per client.
  const config = { rateLimit: opts.rateLimit };
  const tags = ['recipient'];
  const consumes = ['multipart/form-data'];

  async function answer(reply: FastifyReply, outcome: ScanOutcome) {
    if (outcome.grantGiftId) await grants.grant(reply, outcome.grantGiftId);
    reply.header('cache-control', 'no-store');
    return outcome.response;
  }

  // Direct flow: the gift link is the capability.
  api.post(
    RECIPIENT_API.processScanDirect(':giftId'),
    { config, schema: { tags, summary: 'Match a photo against the linked gift (multipart: scan, type=direct)', consumes, params: GiftParams } },
    async (request, reply) => {
      const { scan } = await readScan(request);
      return answer(reply, await service.scanGift(request.params.giftId, scan, request.ip));
    },
  );

  // Recipient flow: the session's e-mail decides the candidate gifts; recipient_id must be the session's.
  const recipientScan = { tags, summary: 'Match a photo against the session e-mail’s gifts (multipart: scan, recipient_id)', consumes };
  api.post(RECIPIENT_API.processScan, { config, preValidation: requireRecipient.hook, schema: recipientScan }, async (request, reply) => {
    const recipient = await requireRecipient(request);
    const { scan, fields } = await readScan(request);
    return answer(reply, await service.scanForRecipient(recipient, fields.recipient_id, scan, request.ip));
  });
}
