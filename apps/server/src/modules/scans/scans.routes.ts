import { OpenWithCodeErrors, OpenWithCodeRequest, OpenWithCodeResponse } from '@giftlens/contract/recipient';
import { GiftId } from '@giftlens/contract/common';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { multipartRoutes } from '../../lib/multipart.ts';
import { readScan } from '../../lib/scan-photo.ts';
import type { RequireRecipient } from '../recipient-auth/recipient-session.ts';
import type { RevealGrants } from '../reveal-grants/reveal-grants.ts';
import type { ScanOutcome } from './scan-core.ts';
import type { ScansService } from './scans.service.ts';

export const GiftParams = z.object({ giftId: GiftId });

/** A decided scan's answer: the grant cookie on a reveal, never cached. */
export function sendOutcome(grants: RevealGrants, reply: FastifyReply, outcome: { response: unknown; grant: ScanOutcome['grant'] }) {
  if (outcome.grant) grants.setCookie(reply, outcome.grant.giftId, outcome.grant.token);
  reply.header('cache-control', 'no-store');
  return outcome.response;
}

export function scansRoutes(
  app: FastifyInstance,
  opts: {
    service: ScansService;
    grants: RevealGrants;
    requireRecipient: RequireRecipient;
    rateLimit: { max: number; timeWindow: number };
    /** Runs first (before the rate limit): 503 while the matcher is saturated. */
    admission: onRequestHookHandler;
  },
  done: (err?: Error) => void,
) {
  multipartRoutes(app, (scope) => scanRoutesIn(scope, opts));
  backupCodeRoutes(app, opts);
  done();
}

/** Opening a gift by its backup code (decision 039): JSON, no matcher, so no admission hook. */
function backupCodeRoutes(app: FastifyInstance, opts: Parameters<typeof scansRoutes>[1]) {
  const { service, grants, requireRecipient } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // A body without a usable code is a wrong code to the person typing it.
  const config = { rateLimit: opts.rateLimit, validationFallback: texts.backupCode.wrong };
  const tags = ['recipient'];
  const response = { 200: OpenWithCodeResponse, ...OpenWithCodeErrors };

  api.post(
    API.openWithCodeDirect(':giftId'),
    {
      config,
      schema: {
        tags,
        summary: 'Open the linked gift with its 8-digit backup code (answers as a matching scan; 5 wrong codes per gift an hour)',
        params: GiftParams,
        body: OpenWithCodeRequest,
        response,
      },
    },
    // A code that opens nothing throws (400, 429, the plan's refusals): an answer here is always a reveal.
    async (request, reply) =>
      sendOutcome(grants, reply, await service.openWithCode(request.params.giftId, request.body.code, request.ip)) as OpenWithCodeResponse,
  );

  api.post(
    API.openWithCode,
    {
      config,
      preValidation: requireRecipient.hook,
      schema: {
        tags,
        summary: 'Open one of the session e-mail’s gifts with its backup code (body: code, recipient_id)',
        body: OpenWithCodeRequest,
        response,
      },
    },
    async (request, reply) => {
      const recipient = await requireRecipient(request);
      const { code, recipient_id } = request.body;
      return sendOutcome(grants, reply, await service.openWithCodeForRecipient(recipient, recipient_id, code, request.ip)) as OpenWithCodeResponse;
    },
  );
}

function scanRoutesIn(app: FastifyInstance, opts: Parameters<typeof scansRoutes>[1]) {
  const { service, grants, requireRecipient } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Matching costs CPU even when it succeeds (Lifetime gifts have unlimited reveals): every scan is limited per client.
  const config = { rateLimit: opts.rateLimit };
  const onRequest = opts.admission;
  const tags = ['recipient'];
  const consumes = ['multipart/form-data'];

  const answer = (reply: FastifyReply, outcome: ScanOutcome) => sendOutcome(grants, reply, outcome);

  // Direct flow: the gift link is the capability.
  api.post(
    API.processScanDirect(':giftId'),
    { config, onRequest, schema: { tags, summary: 'Match a photo against the linked gift (multipart: scan, type=direct)', consumes, params: GiftParams } },
    async (request, reply) => {
      const { scan } = await readScan(request);
      return answer(reply, await service.scanGift(request.params.giftId, scan, request.ip));
    },
  );

  // Recipient flow: the session's e-mail decides the candidate gifts; recipient_id must be the session's.
  const recipientScan = { tags, summary: 'Match a photo against the session e-mail’s gifts (multipart: scan, recipient_id)', consumes };
  api.post(API.processScan, { config, onRequest, preValidation: requireRecipient.hook, schema: recipientScan }, async (request, reply) => {
    const recipient = await requireRecipient(request);
    const { scan, fields } = await readScan(request);
    return answer(reply, await service.scanForRecipient(recipient, fields.recipient_id, scan, request.ip));
  });
}
