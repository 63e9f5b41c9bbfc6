import { GIFT_IMAGE_MAX_BYTES, MAX_REFERENCE_PHOTOS } from '@giftlens/contract/constants';
import { GiftId } from '@giftlens/contract/common';
import { GiftSummaryResponse } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { multipartRoutes, readMultipart } from '../../lib/multipart.ts';
import { perSender, type RateLimit, type RequireSender } from '../sender-auth/sender-session.ts';
import { giftFieldTooLong, type GiftsService } from './gifts.service.ts';

const GiftParams = z.object({ giftId: GiftId });

const submissionRefusals = {
  invalid: () => new AppError(400, 'multipart_required', texts.sender.giftImageRequired),
  fileTooLarge: () => new AppError(413, 'gift_image_too_large', texts.sender.giftImageInvalid),
  tooMany: () => new AppError(400, 'too_many_images', texts.sender.tooManyGiftImages),
  fieldTooLong: giftFieldTooLong,
};

/** Reads the multipart body: text fields, and up to 3 non-empty files named giftImage (each ≤ 10 MB). */
async function readSubmission(request: FastifyRequest) {
  const images: Buffer[] = [];
  const fields = await readMultipart(
    request,
    { fileSize: GIFT_IMAGE_MAX_BYTES, files: MAX_REFERENCE_PHOTOS, fields: 20, fieldSize: 10_000 },
    submissionRefusals,
    async (part) => {
      const data = await part.toBuffer();
      if (part.fieldname === 'giftImage' && data.length > 0) images.push(data);
    },
  );
  return { fields, images };
}

export function giftsRoutes(
  app: FastifyInstance,
  opts: { service: GiftsService; requireSender: RequireSender; rateLimit: RateLimit },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { preValidation: requireSender.hook };
  // A gift's photos are decoded and enrolled, up to about a second of CPU each.
  const limited = { ...signedIn, config: perSender(requireSender, opts.rateLimit) };
  const tags = ['gifts'];
  const consumes = ['multipart/form-data'];

  multipartRoutes(app, (scope) => {
    const multipart = scope.withTypeProvider<ZodTypeProvider>();
    multipart.post(
      API.submitGift,
      { ...limited, schema: { tags, summary: 'Create a gift (multipart: details and 1–3 giftImage photos)', consumes } },
      async (request) => {
        const { fields, images } = await readSubmission(request);
        const { giftId, quality, lookalike } = await service.createGift(await requireSender(request), fields, images);
        return { success: true, giftId, ...(quality ? { quality } : {}), lookalike };
      },
    );

    multipart.post(
      API.giftPhotos(':giftId'),
      { ...limited, schema: { tags, summary: 'Another photo of the gift (multipart: giftImage), 3 at most', consumes, params: GiftParams } },
      async (request) => {
        const { images } = await readSubmission(request);
        return service.addPhotos(await requireSender(request), request.params.giftId, images);
      },
    );
  });

  api.get(
    API.senderGift(':giftId'),
    {
      ...signedIn,
      schema: { tags, summary: 'The checkout summary of the sender’s own gift', params: GiftParams, response: { 200: GiftSummaryResponse } },
    },
    async (request) => ({ success: true as const, gift: await service.summary(await requireSender(request), request.params.giftId) }),
  );
  done();
}
