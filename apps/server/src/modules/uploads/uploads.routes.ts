import { API } from '@giftlens/contract/routes';
import {
  ConfirmUploadRequest,
  GenerateUploadUrlRequest,
  SaveTextMessageRequest,
} from '@giftlens/contract/sender';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, type RequireSender } from '../../lib/http.ts';
import type { UploadsService } from './uploads.service.ts';

const UploadParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });
const UploadQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });

export function uploadsRoutes(app: FastifyInstance, opts: { service: UploadsService; requireSender: RequireSender }) {
  const { service, requireSender } = opts;

  app.post(API.generateUploadUrl, async (request) => {
    const sender = await requireSender(request);
    return service.generateUploadUrl(sender, parse(GenerateUploadUrlRequest, request.body));
  });

  app.post(API.confirmUpload, async (request) => {
    const sender = await requireSender(request);
    await service.confirmUpload(sender, parse(ConfirmUploadRequest, request.body));
    return { success: true };
  });

  app.post(API.saveTextMessage, async (request) => {
    const sender = await requireSender(request);
    await service.saveTextMessage(sender, parse(SaveTextMessageRequest, request.body));
    return { success: true };
  });

  // The signed PUT target. Its own scope: no body parser buffers the upload; the handler streams request.raw.
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.put('/api/uploads/:token', async (request, reply) => {
      const { token } = parse(UploadParams, request.params);
      const query = parse(UploadQuery, request.query);
      const header = request.headers['content-length'];
      const contentLength = header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
      try {
        const { size } = await service.receiveUpload(token, query, request.raw, contentLength);
        return { success: true, size };
      } catch (err) {
        // The client may still be sending; close the connection instead of reading the rest.
        reply.header('connection', 'close');
        throw err;
      }
    });
    done();
  });
}
