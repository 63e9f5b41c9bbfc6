import { API } from '@giftlens/contract/routes';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { texts } from '@giftlens/contract/texts';
import { AppError } from '../../lib/errors.ts';
import { multipartRoutes } from '../../lib/multipart.ts';
import { readScan } from '../../lib/scan-photo.ts';
import type { DemoService } from './demo.service.ts';

const DEMO_ID = /^[a-z0-9-]{1,40}$/;

export function demoRoutes(
  app: FastifyInstance,
  opts: {
    service: DemoService;
    rateLimit: { max: number; timeWindow: number };
    /** Runs first (before the rate limit): 503 while the matcher is saturated. */
    admission: onRequestHookHandler;
  },
  done: (err?: Error) => void,
) {
  // Matching costs CPU and the demo needs no sign-in: limited per client.
  const schema = { tags: ['demo'], summary: 'Match a photo of the demo gift (multipart: scan)', consumes: ['multipart/form-data'] };
  multipartRoutes(app, (scope) => {
    scope.post(API.demoScan(':demoId'), { config: { rateLimit: opts.rateLimit }, onRequest: opts.admission, schema }, async (request) => {
      const { demoId } = request.params as { demoId: string };
      if (!DEMO_ID.test(demoId)) throw new AppError(404, 'demo_not_found', texts.recipient.demoNotFound);
      const { scan } = await readScan(request);
      return opts.service.scan(demoId, scan);
    });
  });
  done();
}
