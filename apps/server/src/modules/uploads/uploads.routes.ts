import { API } from '@giftlens/contract/routes';
import {
  ConfirmUploadRequest,
  GenerateUploadUrlRequest,
  SaveTextMessageRequest,
} from '@giftlens/contract/sender';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perSender, type RateLimit, type RequireSender } from '../sender-auth/sender-session.ts';
import type { UploadsService } from './uploads.service.ts';

const UploadParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });
const UploadQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });
const tags = ['messages'];

export function uploadsRoutes(app: FastifyInstance, opts: { service: UploadsService; requireSender: RequireSender; confirmRateLimit: RateLimit }, done: (err?: Error) => void) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { preValidation: requireSender.hook };

  api.post(
    API.generateUploadUrl,
    { ...signedIn, schema: { tags, summary: 'A signed URL to PUT the message file to', body: GenerateUploadUrlRequest } },
    async (request) => service.generateUploadUrl(await requireSender(request), request.body),
  );

  api.post(
    API.confirmUpload,
    {
      ...signedIn,
      // Each confirm copies the upload and runs ffprobe over it.
      config: perSender(requireSender, opts.confirmRateLimit),
      schema: { tags, summary: 'Check the uploaded file and make it the gift’s message', body: ConfirmUploadRequest },
    },
    async (request) => {
      await service.confirmUpload(await requireSender(request), request.body);
      return { success: true };
    },
  );

  api.post(
    API.saveTextMessage,
    { ...signedIn, schema: { tags, summary: 'A text message instead of a recording', body: SaveTextMessageRequest } },
    async (request) => {
      await service.saveTextMessage(await requireSender(request), request.body);
      return { success: true };
    },
  );

  // The signed PUT target. Its own scope: no body parser buffers the upload; the handler streams request.raw.
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.withTypeProvider<ZodTypeProvider>().put(
      '/api/uploads/:token',
      { schema: { tags, summary: 'The upload itself (raw bytes), at the signed URL', params: UploadParams, querystring: UploadQuery } },
      async (request, reply) => {
        const header = request.headers['content-length'];
        const contentLength = header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
        try {
          const { size } = await service.receiveUpload(request.params.token, request.query, request.raw, contentLength);
          return { success: true, size };
        } catch (err) {
          // The client may still be sending; close the connection instead of reading the rest.
          reply.header('connection', 'close');
          throw err;
        }
      },
    );
    done();
  });
  done();
}
