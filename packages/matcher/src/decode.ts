import sharp from 'sharp';
import { MatcherError } from './errors.ts';

/** Smallest accepted side of the decoded (EXIF-rotated) photo, in pixels. */
export const MIN_SIDE = 64;

export interface GreyImage {
  width: number;
  height: number;
  /** 8-bit grey pixels, row-major, width*height bytes. */
  data: Uint8Array;
  /** Size of the photo as decoded, before our resize. */
  originalWidth: number;
  originalHeight: number;
}

/**
 * Decodes any common photo (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC where libvips can), applies EXIF rotation,
 * flattens transparency onto white and returns grey pixels fitting inside maxSide x maxSide.
 */
export async function decodeGrey(input: Buffer | Uint8Array, maxSide: number): Promise<GreyImage> {
  if (!input || input.byteLength === 0) throw new MatcherError('unreadable_image', 'The image is empty');
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(buf, { failOn: 'none', limitInputPixels: 100_000_000 }).metadata();
  } catch (cause) {
    throw new MatcherError('unreadable_image', 'The image could not be read', { cause });
  }
  const rawW = meta.width ?? 0;
  const rawH = meta.height ?? 0;
  const swap = (meta.orientation ?? 1) >= 5;
  const originalWidth = swap ? rawH : rawW;
  const originalHeight = swap ? rawW : rawH;
  if (originalWidth < MIN_SIDE || originalHeight < MIN_SIDE) {
    if (originalWidth === 0 || originalHeight === 0) throw new MatcherError('unreadable_image', 'The image could not be read');
    throw new MatcherError(
      'image_too_small',
      `The image is ${originalWidth}x${originalHeight} px; at least ${MIN_SIDE}x${MIN_SIDE} px is needed`,
    );
  }
  try {
    let pipeline = sharp(buf, { failOn: 'none', limitInputPixels: 100_000_000 }).rotate();
    if (meta.hasAlpha) pipeline = pipeline.flatten({ background: '#ffffff' });
    if (originalWidth > maxSide || originalHeight > maxSide) {
      pipeline = pipeline.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    }
    const { data, info } = await pipeline
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`expected 1 channel, got ${info.channels}`);
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      originalWidth,
      originalHeight,
    };
  } catch (cause) {
    if (cause instanceof MatcherError) throw cause;
    throw new MatcherError('unreadable_image', 'The image could not be decoded', { cause });
  }
}

/** The recipient's browser compression: fit inside 600x600, JPEG quality 0.5 (EXIF rotation applied). */
export async function browserCompress(input: Buffer | Uint8Array): Promise<Buffer> {
  return sharp(input)
    .rotate()
    .resize({ width: 600, height: 600, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 50 })
    .toBuffer();
}
