import { API } from '@giftlens/contract/routes';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { multipartRoutes } from '../../lib/multipart.ts';
import { readScan } from '../../lib/scan-photo.ts';
import type { RequireRecipient } from '../recipient-auth/recipient-session.ts';
import type { RevealGrants } from '../reveal-grants/reveal-grants.ts';
import type { LiveFramesService } from './live-frames.service.ts';
import { GiftParams, sendOutcome } from './scans.routes.ts';

/**
 * The live frames (contract: LiveFrameResponse): the same photo fields, session and refusals as process-scan,
 * read in memory only. Hooks, in order: the matcher must have no queue (503), then the per-second rate (429).
 */
export function liveFramesRoutes(
  app: FastifyInstance,
  opts: {
    service: LiveFramesService;
    grants: RevealGrants;
    requireRecipient: RequireRecipient;
    /** 503 while the matcher has any queue: explicit scans have priority. */
    admission: onRequestHookHandler;
  },
  done: (err?: Error) => void,
) {
  multipartRoutes(app, (scope) => liveFrameRoutesIn(scope, opts));
  done();
}

function liveFrameRoutesIn(app: FastifyInstance, opts: Parameters<typeof liveFramesRoutes>[1]) {
  const { service, grants, requireRecipient } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const rate = (request: FastifyRequest) => service.assertRate(request.ip);
  const onRequest = [opts.admission, rate];
  const tags = ['recipient'];
  const consumes = ['multipart/form-data'];

  api.post(
    API.liveFrameDirect(':giftId'),
    {
      onRequest,
      schema: {
        tags,
        summary: 'Match one live camera frame against the linked gift; never stored (multipart: scan, type=direct, scan_session)',
        consumes,
        params: GiftParams,
      },
    },
    async (request, reply) => {
      const { scan, fields } = await readScan(request);
      return sendOutcome(grants, reply, await service.frameForGift(request.params.giftId, scan, request.ip, fields.scan_session));
    },
  );

  const recipientFrame = {
    tags,
    summary: 'Match one live camera frame against the session e-mail’s gifts; never stored (multipart: scan, recipient_id, scan_session)',
    consumes,
  };
  api.post(API.liveFrame, { onRequest, preValidation: requireRecipient.hook, schema: recipientFrame }, async (request, reply) => {
    const recipient = await requireRecipient(request);
    const { scan, fields } = await readScan(request);
    return sendOutcome(grants, reply, await service.frameForRecipient(recipient, fields.recipient_id, scan, request.ip, fields.scan_session));
  });
}
