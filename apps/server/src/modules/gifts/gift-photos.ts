import { texts } from '@giftlens/contract/texts';
import type { PhotoQuality } from '@giftlens/contract/sender';
import { isUnreadableImage, type Recogniser, REFERENCE_RECIPE } from '../../adapters/recogniser.ts';
import { AppError } from '../../lib/errors.ts';
import { normaliseGiftImage, type NormalisedImage, pixelsOverLimit } from '../../lib/images.ts';

export interface EnrolledPhoto {
  image: NormalisedImage;
  features: Buffer;
  quality: PhotoQuality;
}

/**
 * Everything a gift photo needs before anything is written: the real type sniffed, decoded and normalised, and
 * enrolled with the recogniser (features + quality). A photo that fails any step is a 400, not a half-made gift.
 */
export async function preparePhotos(recogniser: Recogniser, images: Buffer[]): Promise<EnrolledPhoto[]> {
  const prepared: EnrolledPhoto[] = [];
  for (const input of images) {
    const megapixels = await pixelsOverLimit(input);
    if (megapixels !== null) throw new AppError(422, 'gift_image_too_many_pixels', texts.media.imageTooManyPixels(String(Math.round(megapixels))));
    const image = await normaliseGiftImage(input);
    if (!image) throw new AppError(400, 'gift_image_invalid', texts.sender.giftImageInvalid);
    try {
      const { reference, quality } = await recogniser.enrol(image.data);
      prepared.push({
        image,
        features: Buffer.from(reference),
        quality: {
          recognisable: quality.recognisable,
          score: quality.score,
          rating: quality.rating,
          reasons: quality.reasons,
          ...(quality.message ? { message: quality.message } : {}),
        },
      });
    } catch (err) {
      if (isUnreadableImage(err)) throw new AppError(400, 'gift_image_unreadable', texts.sender.giftPhotoUnreadable);
      throw err;
    }
  }
  return prepared;
}

/** A gift is as recognisable as its best photo. */
export function bestQuality(photos: { quality: PhotoQuality }[]): PhotoQuality | undefined {
  return photos.map((p) => p.quality).sort((a, b) => b.rating - a.rating || b.score - a.score)[0];
}

/**
 * Whether a recipient's scan could not tell one of these photos from a photo of another of their active gifts
 * (`others`: the features of those gifts' photos). Only yes/no leaves here (decision 031).
 */
export async function anyLookalike(recogniser: Recogniser, photos: EnrolledPhoto[], others: Buffer[]): Promise<boolean> {
  if (others.length === 0) return false;
  const refs = others.map((o) => new Uint8Array(o));
  for (const p of photos) if (await recogniser.lookalike(new Uint8Array(p.features), refs)) return true;
  return false;
}

/** The gift_photos columns that hold the enrolment. */
export const enrolmentColumns = (p: EnrolledPhoto) => ({
  features: p.features,
  features_recipe: REFERENCE_RECIPE,
  quality: p.quality.score,
  recognisable: p.quality.recognisable ? 1 : 0,
  quality_message: p.quality.message ?? null,
  rating: p.quality.rating,
  quality_reasons: p.quality.reasons.join(','),
});
