import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif']);

export interface NormalisedImage {
  data: Buffer;
  mime: string;
  ext: string;
}

/**
 * Trusts the bytes, not the declared type: sniffs the real format, then decodes, EXIF-rotates and re-encodes to
 * JPEG (which also strips metadata such as GPS). Returns null for anything that is not a decodable image.
 */
export async function normaliseGiftImage(input: Buffer): Promise<NormalisedImage | null> {
  const type = await fileTypeFromBuffer(input);
  if (!type || !ACCEPTED.has(type.mime)) return null;
  try {
    const data = await sharp(input, { failOn: 'error' })
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
