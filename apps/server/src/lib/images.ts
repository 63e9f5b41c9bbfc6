import { IMAGE_MAX_PIXELS } from '@giftlens/contract/constants';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif']);

export interface NormalisedImage {
  data: Buffer;
  mime: string;
  ext: string;
}

/**
 * The megapixels of a photo over IMAGE_MAX_PIXELS, read from its header alone (nothing is decoded): a 31 KB PNG can
 * declare 16000×16000, which takes seconds and hundreds of MB to decode. Null when it is within the limit, or its
 * header cannot be read (the decode that follows refuses it then).
 */
export async function pixelsOverLimit(input: Buffer): Promise<number | null> {
  try {
    const { width, height } = await sharp(input).metadata();
    return width && height && width * height > IMAGE_MAX_PIXELS ? (width * height) / 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * Trusts the bytes, not the declared type: sniffs the real format, then decodes, EXIF-rotates and re-encodes to
 * JPEG (which also strips metadata such as GPS). Returns null for anything that is not a decodable image.
 */
export async function normaliseGiftImage(input: Buffer): Promise<NormalisedImage | null> {
  const type = await fileTypeFromBuffer(input);
  if (!type || !ACCEPTED.has(type.mime)) return null;
  try {
    // The header was checked (pixelsOverLimit); libvips refuses a picture that decodes larger all the same.
    const data = await sharp(input, { failOn: 'error', limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate()
      .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: false })
      .toBuffer();
    return { data, mime: 'image/jpeg', ext: 'jpg' };
  } catch {
    // sharp's prebuilt libvips cannot decode HEVC-coded HEIC; keep the original bytes rather than refuse it.
    if (type.mime === 'image/heic' || type.mime === 'image/heif') return { data: input, mime: type.mime, ext: 'heic' };
    return null;
  }
}
