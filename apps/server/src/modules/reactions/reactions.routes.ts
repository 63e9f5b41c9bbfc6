import {
  ConsentRequest,
  PlayConsentRequest,
  RECIPIENT_API,
  RM,
  StartSyncedRecordingRequest,
} from '@giftlens/contract/recipient';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { parse } from '../../lib/http.ts';
import { readMultipart } from '../../lib/multipart.ts';
import type { RevealGrants } from '../scans/reveal-grants.ts';
import { REACTION_MAX_BYTES, type ReactionsService, type ReceivedReaction } from './reactions.service.ts';

export function reactionsRoutes(
  app: FastifyInstance,
  opts: { service: ReactionsService; grants: RevealGrants; rateLimit: { max: number; timeWindow: number } },
) {
  const { service, grants } = opts;
  // The upload is read to disk before its reaction id is known to be good: limited per client, like every call here.
  const limited = { config: { rateLimit: opts.rateLimit } };

  // Recording is offered only to the browser that revealed the gift (a live reveal grant).
  app.post(RECIPIENT_API.playConsent, limited, async (request) => {
    const body = parse(PlayConsentRequest, request.body);
    await grants.require(request, body.giftId);
    return service.playConsent(body);
  });

  app.post(RECIPIENT_API.consent, limited, async (request) => {
    await service.consent(parse(ConsentRequest, request.body));
    return { success: true };
  });

  app.post(RECIPIENT_API.startSyncedRecording, limited, async (request) => {
    await service.startSyncedRecording(parse(StartSyncedRecordingRequest, request.body));
    return { success: true };
  });

  app.post(RECIPIENT_API.reactionUpload, limited, async (request, reply) => {
    let upload: Awaited<ReturnType<typeof readUpload>>;
    try {
      upload = await readUpload(request, service);
    } catch (err) {
      // The client may still be sending; close the connection instead of reading the rest.
      reply.header('connection', 'close');
      throw err;
    }
    await service.upload(upload.fields, upload.received);
    return { success: true, message: RM.reactionSavedServer };
  });
}

const uploadRefusals = {
  invalid: () => new AppError(400, 'reaction_file_invalid', RM.reactionFileInvalid),
  fileTooLarge: () => new AppError(413, 'reaction_file_invalid', RM.reactionFileInvalid),
  tooMany: () => new AppError(400, 'reaction_file_invalid', RM.reactionFileInvalid),
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
