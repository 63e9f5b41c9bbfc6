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
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    stretchIfFlat(pixels);
    return {
      width: info.width,
      height: info.height,
      data: pixels,
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

/** Photos whose 0.5th–99.5th percentile grey range is narrower than this get their contrast stretched. */
export const FLAT_RANGE = 128;

/**
 * Dim or washed-out photos: stretch the grey levels linearly so the 0.5th..99.5th percentiles span 0..255.
 * The FAST corner test uses an absolute threshold, so without this a photo taken in dim light yields few corners.
 * Photos with normal contrast are left untouched (stretching them gained nothing and cost a little on the data set).
 */
export function stretchIfFlat(px: Uint8Array): void {
  const hist = new Uint32Array(256);
  for (let i = 0; i < px.length; i++) hist[px[i]!]!++;
  const cut = Math.floor(px.length * 0.005);
  let lo = 0, hi = 255, acc = 0;
  while (lo < 255 && acc + hist[lo]! <= cut) acc += hist[lo++]!;
  acc = 0;
  while (hi > 0 && acc + hist[hi]! <= cut) acc += hist[hi--]!;
  const range = hi - lo;
  if (range >= FLAT_RANGE || range < 8) return;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / range)));
  for (let i = 0; i < px.length; i++) px[i] = lut[px[i]!]!;
}
