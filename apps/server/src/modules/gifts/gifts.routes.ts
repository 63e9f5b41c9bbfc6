import { GIFT_IMAGE_MAX_BYTES, MAX_REFERENCE_PHOTOS } from '@giftlens/contract/constants';
import { GiftId } from '@giftlens/contract/common';
import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { parse, type RequireSender } from '../../lib/http.ts';
import type { GiftsService } from './gifts.service.ts';

const GiftParams = z.object({ giftId: GiftId });

/** Reads the multipart body: text fields, and up to 3 non-empty files named giftImage (each ≤ 10 MB). */
async function readSubmission(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError(400, 'multipart_required', M.giftImageRequired);
  const fields: Record<string, string> = {};
  const images: Buffer[] = [];
  try {
    const parts = request.parts({
      limits: { fileSize: GIFT_IMAGE_MAX_BYTES, files: MAX_REFERENCE_PHOTOS, fields: 20, fieldSize: 10_000 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      } else {
        const data = await part.toBuffer();
        if (part.fieldname === 'giftImage' && data.length > 0) images.push(data);
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'gift_image_too_large', M.giftImageInvalid);
    if (code === 'FST_FILES_LIMIT') throw new AppError(400, 'too_many_images', M.tooManyGiftImages);
    throw err;
  }
  return { fields, images };
}

export function giftsRoutes(app: FastifyInstance, opts: { service: GiftsService; requireSender: RequireSender }) {
  const { service, requireSender } = opts;

  app.post(API.submitGift, async (request) => {
    const sender = await requireSender(request);
    const { fields, images } = await readSubmission(request);
    const { giftId, quality } = await service.createGift(sender, fields, images);
    return { success: true, giftId, ...(quality ? { quality } : {}) };
  });

  app.post(API.giftPhotos(':giftId'), async (request) => {
    const sender = await requireSender(request);
    const { giftId } = parse(GiftParams, request.params);
    const { images } = await readSubmission(request);
    return service.addPhotos(sender, giftId, images);
  });

  app.get(API.senderGift(':giftId'), async (request) => {
    const sender = await requireSender(request);
    const { giftId } = parse(GiftParams, request.params);
    return { success: true, gift: await service.summary(sender, giftId) };
  });
}
