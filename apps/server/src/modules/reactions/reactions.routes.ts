import { ConsentRequest, PlayConsentRequest, StartSyncedRecordingRequest } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { multipartRoutes, readMultipart } from '../../lib/multipart.ts';
import type { RevealGrants } from '../reveal-grants/reveal-grants.ts';
import { REACTION_MAX_BYTES, type ReactionsService, type ReceivedReaction } from './reactions.service.ts';

export function reactionsRoutes(
  app: FastifyInstance,
  opts: { service: ReactionsService; grants: RevealGrants; rateLimit: { max: number; timeWindow: number } },
  done: (err?: Error) => void,
) {
  const { service, grants } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The upload is read to disk before its reaction id is known to be good: limited per client, like every call here.
  const config = { rateLimit: opts.rateLimit };
  const tags = ['reactions'];

  // Recording is offered only to the browser that revealed the gift (a live reveal grant).
  api.post(
    API.playConsent,
    { config, schema: { tags, summary: 'May this viewing be recorded? (needs the reveal grant)', body: PlayConsentRequest } },
    async (request) => {
      await grants.require(request, request.body.giftId);
      return service.playConsent(request.body);
    },
  );

  api.post(API.consent, { config, schema: { tags, summary: 'The recipient’s yes or no', body: ConsentRequest } }, async (request) => {
    await service.consent(request.body);
    return { success: true };
  });

  api.post(
    API.startSyncedRecording,
    { config, schema: { tags, summary: 'Recording started with the message', body: StartSyncedRecordingRequest } },
    async (request) => {
      await service.startSyncedRecording(request.body);
      return { success: true };
    },
  );

  const uploadSchema = { tags, summary: 'The recording (multipart: reaction file and its timing fields)', consumes: ['multipart/form-data'] };
  multipartRoutes(app, (scope) =>
    scope.post(API.reactionUpload, { config, schema: uploadSchema }, async (request, reply) => {
      let upload: Awaited<ReturnType<typeof readUpload>>;
      try {
        upload = await readUpload(request, service);
      } catch (err) {
        // The client may still be sending; close the connection instead of reading the rest.
        reply.header('connection', 'close');
        throw err;
      }
      await service.upload(upload.fields, upload.received);
      return { success: true, message: texts.recipient.reactionSavedServer };
    }),
  );
  done();
}

const uploadRefusals = {
  invalid: () => new AppError(400, 'reaction_file_invalid', texts.recipient.reactionFileInvalid),
  fileTooLarge: () => new AppError(413, 'reaction_file_invalid', texts.recipient.reactionFileInvalid),
  tooMany: () => new AppError(400, 'reaction_file_invalid', texts.recipient.reactionFileInvalid),
  // As a field that fails ReactionUploadFields.
  fieldTooLong: () => new AppError(400, 'validation_failed', texts.recipient.uploadFailed),
};

/** Reads the multipart upload: text fields and the `reaction` file, streamed to a temporary file. */
async function readUpload(request: FastifyRequest, service: ReactionsService) {
  let received: ReceivedReaction | undefined;
  try {
    const fields = await readMultipart(
      request,
      { fileSize: REACTION_MAX_BYTES + 1, files: 1, fields: 20, fieldSize: 1000 },
      uploadRefusals,
      async (part) => {
        if (part.fieldname === 'reaction' && !received) received = await service.receive(part.file);
      },
    );
    return { fields, received };
  } catch (err) {
    // Nothing half-written: a temporary file from a body that then failed is removed.
    await received?.file.discard();
    throw err;
  }
}
