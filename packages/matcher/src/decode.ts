import sharp from 'sharp';
import { MatcherError } from './errors.ts';

/** Smallest accepted side of the decoded (EXIF-rotated) photo, in pixels. */
export const MIN_SIDE = 64;

/**
 * Smallest side once the photo is fitted inside the working square: a 64 x 20000 px strip passes MIN_SIDE but becomes
 * 2 px wide, which OpenCV's ORB cannot take (it fails, or worse, writes outside its buffers).
 */
export const MIN_FITTED_SIDE = 32;

export interface GreyImage {
  width: number;
  height: number;
  /** 8-bit grey pixels, row-major, width*height bytes. */
  data: Uint8Array;
  /** Size of the photo as decoded, before our resize (decodeGrey; decodeStaged does not read it, see there). */
  originalWidth?: number;
  originalHeight?: number;
}

/**
 * Decodes any common photo (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC where libvips can), applies EXIF rotation,
 * flattens transparency onto white and returns grey pixels fitting inside maxSide x maxSide.
 */
export async function decodeGrey(input: Buffer | Uint8Array, maxSide: number): Promise<GreyImage> {
  const probed = await probe(input);
  const { originalWidth, originalHeight } = probed;
  try {
    const { data, info } = await normalised(probed, maxSide)
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`expected 1 channel, got ${info.channels}`);
    assertFittedSize(info.width, info.height, probed, maxSide);
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

/** A photo decoded for feature extraction: grey at full size, and two colour-opponent channels at half size. */
export interface DecodedLayers {
  grey: GreyImage;
  /**
   * Colour-opponent channels at half the grey image's size (2x2 box average), offset to 128 for neutral grey:
   * red minus green, and yellow minus blue. A neutral surface (carpet, wall, paper) is flat in both, so corners of
   * coloured things stand out even where grey texture around them is busier (toy blocks on a carpet).
   */
  chroma: [GreyImage, GreyImage];
}

/**
 * Decodes once to RGB (same EXIF rotation, flattening and resize as decodeGrey) and derives the grey image with the
 * formula of libvips' sRGB -> b-w conversion (luminance of linear light, sRGB-encoded again; within one level of
 * sharp's own), plus the chroma channels.
 */
export async function decodeLayers(input: Buffer | Uint8Array, maxSide: number, step = CHROMA_STEP): Promise<DecodedLayers> {
  const d = await decodeStaged(input, maxSide);
  return { grey: d.grey, chroma: d.chroma(step) };
}

/** A decoded photo whose chroma channels are only computed when asked for (scans decided on grey skip them). */
export interface StagedDecode {
  grey: GreyImage;
  /** the decoded picture's RGB pixels (3 bytes a pixel, the grey picture's size) */
  rgb: Uint8Array;
  chroma(step?: number): [GreyImage, GreyImage];
}

/**
 * One libvips pipeline, without reading the header first (that cost a scan 1.9 ms of CPU, decision 033): the checks
 * of the photo's own size (probe) run only when the decoded picture is small enough to fail them, or when decoding
 * fails, so every photo is refused as before.
 */
export async function decodeStaged(input: Buffer | Uint8Array, maxSide: number, probeFirst = false): Promise<StagedDecode> {
  const buf = asBuffer(input);
  let decoded: { data: Buffer; info: sharp.OutputInfo };
  try {
    // probeFirst: the header read first, as before decision 033 (the bench's earlier recipes)
    const pipeline = probeFirst
      ? normalised(await probe(buf), maxSide)
      : sharp(buf, SHARP_INPUT).rotate().flatten({ background: '#ffffff' }).resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    decoded = await pipeline.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (cause) {
    if (cause instanceof MatcherError) throw cause;
    await probe(buf);
    throw new MatcherError('unreadable_image', 'The image could not be decoded', { cause });
  }
  const { data, info } = decoded;
  if (Math.min(info.width, info.height) < MIN_SIDE) assertFittedSize(info.width, info.height, await probe(buf), maxSide);
  if (info.channels !== 3) throw new MatcherError('unreadable_image', 'The image could not be decoded', { cause: new Error(`expected 3 channels, got ${info.channels}`) });
  const w = info.width, h = info.height;
  const rgb = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const grey = new Uint8Array(w * h);
  for (let i = 0, p = 0; i < grey.length; i++, p += 3) grey[i] = ENC[LIN_R[rgb[p]!]! + LIN_G[rgb[p + 1]!]! + LIN_B[rgb[p + 2]!]!]!;
  const gain = stretchIfFlat(grey);
  return {
    grey: { width: w, height: h, data: grey },
    rgb,
    chroma: (step = CHROMA_STEP) => chromaChannels(rgb, w, h, step, gain),
  };
}

function chromaChannels(rgb: Uint8Array, w: number, h: number, step: number, gain: number): [GreyImage, GreyImage] {
  const cw = Math.floor(w / step), ch = Math.floor(h / step), n = step * step;
  const o1 = new Uint8Array(cw * ch), o2 = new Uint8Array(cw * ch);
  // r, g, b below are sums over a step x step block, so (r - g) / n is the block's mean red-minus-green
  const k1 = (CHROMA_GAIN * gain) / n, k2 = (CHROMA_GAIN * gain) / (2 * n), row = w * 3;
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      let r = 0, g = 0, b = 0;
      for (let dy = 0, p0 = (y * step * w + x * step) * 3; dy < step; dy++, p0 += row) {
        for (let dx = 0, p = p0; dx < step; dx++, p += 3) {
          r += rgb[p]!;
          g += rgb[p + 1]!;
          b += rgb[p + 2]!;
        }
      }
      const i = y * cw + x;
      o1[i] = clampByte(128 + (r - g) * k1);
      o2[i] = clampByte(128 + (r + g - 2 * b) * k2);
    }
  }
  const half = (d: Uint8Array): GreyImage => ({ width: cw, height: ch, data: d });
  return [half(o1), half(o2)];
}

/** The chroma channels are box averages over CHROMA_STEP x CHROMA_STEP pixels of the grey image's size. */
export const CHROMA_STEP = 2;

/**
 * Contrast of the chroma channels: mean channel differences are doubled, so differences of 64 levels or more clip
 * at 0 or 255 (saturated colours of one family, red and magenta, come out alike). Of gains 1, 2 and 3, 2 gave the
 * most evidence on the data set's 3D objects for the same impostor counts (README, "Third attempt").
 */
export const CHROMA_GAIN = 2;

/**
 * Grey conversion tables: sRGB 8-bit -> linear light weighted by the channel's share of luminance (Rec. 709), in
 * integer steps of 1/ENC_STEPS (the three sum to at most ENC_STEPS + 1, rounding); and luminance -> sRGB 8-bit.
 * Checked over all 16.7 million colours: 83% give sharp's own b-w level, the rest differ by one.
 */
const ENC_STEPS = 65536;
const linear = (v: number): number => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const LIN_R = Uint32Array.from({ length: 256 }, (_, v) => Math.round(linear(v) * 0.2126 * ENC_STEPS));
const LIN_G = Uint32Array.from({ length: 256 }, (_, v) => Math.round(linear(v) * 0.7152 * ENC_STEPS));
const LIN_B = Uint32Array.from({ length: 256 }, (_, v) => Math.round(linear(v) * 0.0722 * ENC_STEPS));
const ENC = Uint8Array.from({ length: ENC_STEPS + 2 }, (_, i) => {
  const y = i / ENC_STEPS;
  const c = y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055;
  return Math.round(c * 255);
});

function clampByte(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

interface Probed {
  buf: Buffer;
  originalWidth: number;
  originalHeight: number;
  hasAlpha: boolean;
}

function assertFittedSize(width: number, height: number, p: Probed, maxSide: number): void {
  if (Math.min(width, height) >= MIN_FITTED_SIDE) return;
  throw new MatcherError(
    'image_too_small',
    `The image is ${p.originalWidth}x${p.originalHeight} px; fitted inside ${maxSide}x${maxSide} px it is ${width}x${height}, and each side needs at least ${MIN_FITTED_SIDE} px`,
  );
}

/** EXIF rotation, transparency flattened onto white, fit inside maxSide x maxSide (never enlarged). */
function normalised(p: Probed, maxSide: number): sharp.Sharp {
  let pipeline = sharp(p.buf, SHARP_INPUT).rotate();
  if (p.hasAlpha) pipeline = pipeline.flatten({ background: '#ffffff' });
  if (p.originalWidth > maxSide || p.originalHeight > maxSide) {
    pipeline = pipeline.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
  }
  return pipeline;
}

const SHARP_INPUT: sharp.SharpOptions = { failOn: 'none', limitInputPixels: 100_000_000 };

function asBuffer(input: Buffer | Uint8Array): Buffer {
  if (!input || input.byteLength === 0) throw new MatcherError('unreadable_image', 'The image is empty');
  return Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
}

/** Reads the header: size after EXIF rotation; rejects empty, unreadable and too-small images. */
async function probe(input: Buffer | Uint8Array): Promise<Probed> {
  const buf = asBuffer(input);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(buf, SHARP_INPUT).metadata();
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
  return { buf, originalWidth, originalHeight, hasAlpha: meta.hasAlpha ?? false };
}

/**
 * What the recipient's browser sends (packages/contract SCAN_COMPRESSION: maxWidthOrHeight 600, initialQuality 0.5,
 * lowered by 0.1 down to minQuality 0.3 while the file is over maxSizeMB 0.2; the web's `scanFrame`, decision 035):
 * kept by decision 028 after larger recipes were measured on the hard cases (`npm run -s recipes`). A server test
 * checks that the two agree.
 */
export const SCAN_RECIPE = { side: 600, quality: 50, minQuality: 30, maxBytes: 0.2 * 1024 * 1024 };

/**
 * The recipient's browser compression, as the web's `scanFrame` does it: the picture (EXIF rotation applied) drawn
 * at min(1, 600 / its longer side) of its size, each side rounded to the pixel, then JPEG at 50, and at 40, 30 while
 * the file is over 200 KB.
 */
export async function browserCompress(input: Buffer | Uint8Array): Promise<Buffer> {
  const meta = await sharp(input).metadata();
  const w = meta.autoOrient?.width ?? meta.width ?? 0, h = meta.autoOrient?.height ?? meta.height ?? 0;
  const scale = w && h ? Math.min(1, SCAN_RECIPE.side / Math.max(w, h)) : 1;
  const drawn = sharp(input).rotate();
  const resized = scale < 1 ? drawn.resize(Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale)), { fit: 'fill' }) : drawn;
  const { data, info } = await resized.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let out: Buffer | undefined;
  for (let q = SCAN_RECIPE.quality; q >= SCAN_RECIPE.minQuality; q -= 10) {
    out = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: q }).toBuffer();
    if (out.length <= SCAN_RECIPE.maxBytes) break;
  }
  return out!;
}

/** Photos whose 0.5th–99.5th percentile grey range is narrower than this get their contrast stretched. */
export const FLAT_RANGE = 128;

/**
 * Dim or washed-out photos: stretch the grey levels linearly so the 0.5th..99.5th percentiles span 0..255.
 * The FAST corner test uses an absolute threshold, so without this a photo taken in dim light yields few corners.
 * Photos with normal contrast are left untouched (stretching them gained nothing and cost a little on the data set).
 * Returns the gain applied (1 when untouched), so the chroma channels of a dim photo can be stretched alike.
 */
export function stretchIfFlat(px: Uint8Array): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < px.length; i++) hist[px[i]!]!++;
  const cut = Math.floor(px.length * 0.005);
  let lo = 0, hi = 255, acc = 0;
  while (lo < 255 && acc + hist[lo]! <= cut) acc += hist[lo++]!;
  acc = 0;
  while (hi > 0 && acc + hist[hi]! <= cut) acc += hist[hi--]!;
  const range = hi - lo;
  if (range >= FLAT_RANGE || range < 8) return 1;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / range)));
  for (let i = 0; i < px.length; i++) px[i] = lut[px[i]!]!;
  return 255 / range;
}
