/**
 * The whole-gift check (decision 056): after a geometric model places a reference in the photo, does the photo look
 * like the reference over the area the model places it on? Local features find what two products of one brand share
 * (a logo, a band, a layout) as readily as what makes one of them this gift; the check compares the reference's
 * appearance cell by cell with the photo warped by the model, in structure (correlation of gradients, on cells with
 * texture) and in colour (the two colour-opponent channels, after a white-balance shift common to the whole gift).
 *
 * A reference carries its appearance: a grey thumbnail fit inside APPEARANCE_SIDE and the colour channels at half of
 * that (features.ts serialises them after the features). A photo brings its grey picture and colour channels as the
 * engine decoded them.
 */
import type { GreyImage } from './decode.ts';
import { loadedCv } from './cv.ts';

/** The grey thumbnail's longer side (px); its colour channels have half of it. */
export const APPEARANCE_SIDE = 128;

export interface Appearance {
  /** grey thumbnail of the reference picture (fit inside APPEARANCE_SIDE) */
  grey: GreyImage;
  /** its colours: RGB (3 bytes a pixel) at half the thumbnail's size */
  colour: RgbImage;
}

export interface RgbImage {
  width: number;
  height: number;
  /** 3 bytes a pixel, row-major */
  data: Uint8Array;
}

/** A photo as the check needs it: the grey picture the model maps into, and its RGB pixels (the same size). */
export interface PhotoPixels {
  grey: GreyImage;
  rgb: Uint8Array;
}

/** Thresholds of the check; set on the look-alike data set (decision 056, `npm run -s wholegift`). */
export const WHOLE_GIFT = {
  /** cells across the reference's longer side (the shorter side gets as many as keep cells about square) */
  grid: 8,
  /** a cell has texture when its RMS gradient (after a 3x3 blur, grey levels per 2 px) reaches this */
  texture: 8,
  /** a textured cell agrees in structure when its gradient correlation (best of the shifts) reaches this */
  structure: 0.6,
  /** ... and contradicts when both sides have texture and the correlation stays under this */
  unlike: 0.2,
  /** px of shift (each way) the structure comparison of a cell may take: the model is a plane, a carton is not */
  shift: 1,
  /**
   * a cell whose structure agrees but whose colour differs by more than this (log-chromaticity distance, after the
   * white-balance shift common to the gift) ...
   */
  colour: 0.5,
  /**
   * ... and more than this many times the typical (median) distance of the agreeing cells is another colour of the
   * same print: a sibling's band stands out of a gift that otherwise agrees, while real light (a cast, mixed lamps,
   * JPEG at quality 50) moves every cell of a photo a little (covers photographed by phones: 0.7-1.0 here and there)
   */
  colourOutlier: 6,
  /** ... judged only where either side is this coloured (log-chromaticity from grey) and neither is dark */
  saturated: 0.15,
  dark: 30,
  /** the check passes with at least this many cells agreeing in structure (a logo alone holds 2-4) */
  minAgree: 8,
  /**
   * ... making at least this share of the cells that agree or contradict (both textured, unlike): a shared header or
   * band agrees while the rest of the cover, just as textured, contradicts it
   */
  minAgreeShare: 0.4,
  /**
   * ... and refuses a print of another colour: at least this share of the agreeing cells (and maxRecoloured cells or
   * more) of another colour (phone photos of the gift-photos covers: at most 15%; a band across a fifth of a gift: 32%).
   */
  recolouredShare: 0.2,
  maxRecoloured: 3,
  /** ... and at most this many contradicting cells enclosed by agreeing ones (a different picture between the same logo and text) */
  maxHoles: 3,
  /** a cell of the reference without texture or colour and at least this light is the backdrop, not the gift */
  backdrop: 215,
  /** working cells under this many pixels across cannot be judged: the gift is too small in the photo */
  minCellPx: 4,
};

export interface WholeGiftCells {
  /** cells of the gift (the reference's cells that are not its backdrop) */
  cells: number;
  /** of them, placed inside the photo */
  placed: number;
  /** placed cells with texture */
  textured: number;
  /** textured cells agreeing in structure */
  structure: number;
  /** agreeing cells of another colour */
  recoloured: number;
  /** textured cells whose photo is textured and unlike them */
  unlike: number;
  /** of those, enclosed by agreeing cells (in their row or their column) */
  holes: number;
}

export interface WholeGiftCheck extends WholeGiftCells {
  passed: boolean;
  /** the share of the gift's cells that agree in structure and colour */
  supported: number;
  /** why it failed, for the tools: 'small' | 'outside' | 'structure' | 'recoloured' | 'holes' */
  reason?: string;
}

/** Tools only: the working pictures of a check (the reference's and the photo warped onto it). */
export const debug: { onWork?: (ref: Float32Array, photo: Float32Array, w: number, h: number) => void; onCells?: (cells: Cell[], gx: number) => void } = {};

/** The appearance of a reference picture (grey at full size, colour channels at half), for enrolment. */
export function appearanceOf(grey: GreyImage, rgb: Uint8Array): Appearance {
  const s = Math.min(1, APPEARANCE_SIDE / Math.max(grey.width, grey.height));
  const tw = Math.max(8, Math.round(grey.width * s)), th = Math.max(8, Math.round(grey.height * s));
  const cw = Math.max(4, Math.round(tw / 2)), ch = Math.max(4, Math.round(th / 2));
  const colour = areaResize({ width: grey.width, height: grey.height, data: rgb }, cw, ch, 3);
  return { grey: areaResize(grey, tw, th), colour };
}

function areaResize(image: GreyImage, w: number, h: number, channels = 1): GreyImage {
  if (image.width === w && image.height === h) return { width: w, height: h, data: image.data.slice() };
  const cv = loadedCv();
  const src = new cv.Mat(image.height, image.width, channels === 3 ? cv.CV_8UC3 : cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    src.data.set(image.data.subarray(0, image.width * image.height * channels));
    cv.resize(src, dst, new cv.Size(w, h), 0, 0, cv.INTER_AREA);
    return { width: w, height: h, data: dst.data.slice(0, w * h * channels) };
  } finally {
    dst.delete();
    src.delete();
  }
}

/**
 * Bilinear sample of an RGB picture at (x, y), pixel-centre coordinates clamped to its edges, into out[o] of each of
 * the three channel arrays (no closure: this runs for every working pixel).
 */
function sampleRgb(img: RgbImage, x: number, y: number, out: Float32Array[], o: number): void {
  const w = img.width, h = img.height, d = img.data;
  const cx = x < 0 ? 0 : x > w - 1 ? w - 1 : x, cy = y < 0 ? 0 : y > h - 1 ? h - 1 : y;
  const x0 = Math.floor(cx), y0 = Math.floor(cy);
  const x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
  const fx = cx - x0, fy = cy - y0;
  const p00 = (y0 * w + x0) * 3, p01 = (y0 * w + x1) * 3, p10 = (y1 * w + x0) * 3, p11 = (y1 * w + x1) * 3;
  for (let c = 0; c < 3; c++) {
    out[c]![o] = (d[p00 + c]! * (1 - fx) + d[p01 + c]! * fx) * (1 - fy) + (d[p10 + c]! * (1 - fx) + d[p11 + c]! * fx) * fy;
  }
}

/** Halves a picture (2x2 box average); cached per picture, so a photo's levels are made once. */
const halves = new WeakMap<GreyImage, GreyImage>();
function half(image: GreyImage): GreyImage {
  const cached = halves.get(image);
  if (cached) return cached;
  const w = Math.max(1, image.width >> 1), h = Math.max(1, image.height >> 1), d = image.data, W = image.width;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = 2 * y * W + 2 * x;
      out[y * w + x] = (d[p]! + d[p + 1]! + d[p + W]! + d[p + W + 1]! + 2) >> 2;
    }
  }
  const r = { width: w, height: h, data: out };
  halves.set(image, r);
  return r;
}

/** Bilinear sample at (x, y) in pixel-centre coordinates; NaN outside. */
function sample(img: GreyImage, x: number, y: number): number {
  if (!(x >= 0 && y >= 0 && x <= img.width - 1 && y <= img.height - 1)) return NaN;
  const x0 = Math.min(img.width - 2, Math.floor(x)), y0 = Math.min(img.height - 2, Math.floor(y));
  const fx = x - x0, fy = y - y0, w = img.width, d = img.data, p = y0 * w + x0;
  if (w < 2 || img.height < 2) return d[0]!;
  return (d[p]! * (1 - fx) + d[p + 1]! * fx) * (1 - fy) + (d[p + w]! * (1 - fx) + d[p + w + 1]! * fx) * fy;
}

function project(H: number[], x: number, y: number): [number, number] | null {
  const z = H[6]! * x + H[7]! * y + H[8]!;
  if (!(z > 1e-9)) return null;
  return [(H[0]! * x + H[1]! * y + H[2]!) / z, (H[3]! * x + H[4]! * y + H[5]!) / z];
}

/** Area of the quadrilateral the reference's corners project to (query px^2); 0 when it does not project. */
function projectedArea(H: number[], w: number, h: number): number {
  const c = [[0, 0], [w, 0], [w, h], [0, h]].map(([x, y]) => project(H, x!, y!));
  if (c.some((p) => !p)) return 0;
  let a = 0;
  for (let i = 0; i < 4; i++) a += c[i]![0] * c[(i + 1) % 4]![1] - c[(i + 1) % 4]![0] * c[i]![1];
  return Math.abs(a / 2);
}

/** 3x3 binomial blur (edges clamped), as floats. */
function blur(d: Float32Array, w: number, h: number): Float32Array {
  const t = new Float32Array(w * h), o = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      t[i] = (d[i - (x > 0 ? 1 : 0)]! + 2 * d[i]! + d[i + (x < w - 1 ? 1 : 0)]!) / 4;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      o[i] = (t[i - (y > 0 ? w : 0)]! + 2 * t[i]! + t[i + (y < h - 1 ? w : 0)]!) / 4;
    }
  }
  return o;
}

function gradients(d: Float32Array, w: number, h: number): { gx: Float32Array; gy: Float32Array } {
  const b = blur(d, w, h);
  const gx = new Float32Array(w * h), gy = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      gx[i] = b[i + (x < w - 1 ? 1 : 0)]! - b[i - (x > 0 ? 1 : 0)]!;
      gy[i] = b[i + (y < h - 1 ? w : 0)]! - b[i - (y > 0 ? w : 0)]!;
    }
  }
  return { gx, gy };
}

function median(v: number[]): number {
  if (!v.length) return 0;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The check of one placement: the reference `app` (of a refW x refH reference picture) placed in the photo by `map`
 * (reference px -> photo px, 3x3 row-major).
 */
export function checkWholeGift(app: Appearance, refW: number, refH: number, map: number[], photo: PhotoPixels): WholeGiftCheck {
  const T = app.grey, tw = T.width, th = T.height;
  const sx = refW / tw, sy = refH / th;
  // thumbnail px (u, v) -> reference px -> photo px
  const toRef = [sx, 0, 0.5 * sx - 0.5, 0, sy, 0.5 * sy - 0.5, 0, 0, 1];
  const H = mul3(map, toRef);
  const area = projectedArea(map, refW, refH);
  // photo px per thumbnail px
  const k = Math.sqrt(area / (tw * th));
  const cfg = WHOLE_GIFT;
  const gx = tw >= th ? cfg.grid : Math.max(1, Math.round((cfg.grid * tw) / th));
  const gy = th >= tw ? cfg.grid : Math.max(1, Math.round((cfg.grid * th) / tw));
  const empty: WholeGiftCells = { cells: gx * gy, placed: 0, textured: 0, structure: 0, recoloured: 0, unlike: 0, holes: 0 };
  // the working picture: the thumbnail's size, or the gift's own size in the photo when it is smaller there
  const f = Math.min(1, k);
  const W = Math.round(tw * f), Hh = Math.round(th * f);
  if (!(k > 0) || W / gx < cfg.minCellPx || Hh / gy < cfg.minCellPx) return { ...empty, passed: false, supported: 0, reason: 'small' };
  // the photo's level whose pixels are about the working picture's (a pyramid of 2x2 halves): no aliasing
  let level = photo.grey, scale = 1;
  while (k / scale >= 2 && level.width >= 64 && level.height >= 64) {
    level = half(level);
    scale *= 2;
  }
  const photoRgb: RgbImage = { width: photo.grey.width, height: photo.grey.height, data: photo.rgb };
  const { grey: ref, rgb: refC, gradients: gr } = referenceSide(app, W, Hh);
  // working px -> thumbnail px ((i + 0.5) / f - 0.5) -> photo px
  const toThumb = [1 / f, 0, 0.5 / f - 0.5, 0, 1 / f, 0.5 / f - 0.5, 0, 0, 1];
  const { grey: qry, inside, rgb: qC } = samplePhoto(mul3(H, toThumb), W, Hh, level, scale, photoRgb);
  debug.onWork?.(ref, qry, W, Hh);
  const gq = gradients(qry, W, Hh);
  const S = cfg.shift;
  const cells: Cell[] = [];
  for (let cy = 0; cy < gy; cy++) {
    for (let cx = 0; cx < gx; cx++) {
      const x0 = Math.floor((cx * W) / gx), x1 = Math.floor(((cx + 1) * W) / gx);
      const y0 = Math.floor((cy * Hh) / gy), y1 = Math.floor(((cy + 1) * Hh) / gy);
      let n = 0, inn = 0, er = 0, eq = 0, rl = 0, ql = 0;
      const rs = [0, 0, 0], qs = [0, 0, 0];
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const o = y * W + x;
          n++;
          if (!inside[o]) continue;
          inn++;
          er += gr.gx[o]! ** 2 + gr.gy[o]! ** 2;
          eq += gq.gx[o]! ** 2 + gq.gy[o]! ** 2;
          if ((x & 1) === 0 && (y & 1) === 0) {
            // colours are sampled on every other pixel each way (a cell's mean colour needs no more)
            for (let c = 0; c < 3; c++) {
              rs[c]! += refC[c]![o]!;
              qs[c]! += qC[c]![o]!;
            }
          }
          rl += ref[o]!;
          ql += qry[o]!;
        }
      }
      // a cell counts as placed when nearly all of it lies inside the photo
      if (!n || inn < 0.9 * n) {
        cells.push({ placed: false, textured: false, photoTexture: 0, ncc: 0, dA: 0, dB: 0, satR: 0, satQ: 0, lR: 0, lQ: 0, background: false });
        continue;
      }
      const rms = Math.sqrt(er / inn);
      const textured = rms >= cfg.texture;
      let ncc = 0;
      if (textured) {
        for (let dy = -S; dy <= S; dy++) {
          for (let dx = -S; dx <= S; dx++) {
            let s = 0, a2 = 0, b2 = 0;
            for (let y = Math.max(y0, -dy, 0); y < Math.min(y1, Hh - dy); y++) {
              for (let x = Math.max(x0, -dx, 0); x < Math.min(x1, W - dx); x++) {
                const o = y * W + x, p = (y + dy) * W + x + dx;
                if (!inside[p]) continue;
                const rx = gr.gx[o]!, ry = gr.gy[o]!, qx = gq.gx[p]!, qy = gq.gy[p]!;
                s += rx * qx + ry * qy;
                a2 += rx * rx + ry * ry;
                b2 += qx * qx + qy * qy;
              }
            }
            const c = a2 > 0 && b2 > 0 ? s / Math.sqrt(a2 * b2) : 0;
            if (c > ncc) ncc = c;
          }
        }
      }
      rl /= inn;
      ql /= inn;
      // log-chromaticity: ln(R/G) and ln(B/G) of the cell's mean colour; a change of exposure leaves it, a change of
      // white balance (a gain per channel) shifts every cell alike (the median shift is taken out in judge())
      const [ra, rb] = logChroma(rs), [qa, qb] = logChroma(qs);
      const satR = Math.max(Math.abs(ra), Math.abs(rb));
      // the white (or plain light) backdrop a product is photographed on is not the gift
      const background = !textured && rl >= cfg.backdrop && satR < cfg.saturated;
      cells.push({ placed: true, textured, photoTexture: Math.sqrt(eq / inn), ncc, dA: qa - ra, dB: qb - rb, satR, satQ: Math.max(Math.abs(qa), Math.abs(qb)), lR: rl, lQ: ql, background });
    }
  }
  debug.onCells?.(cells, gx);
  return judge(cells, gx);
}

/** ln(R/G), ln(B/G) of summed channels (+1 each, so black is neutral, not undefined). */
function logChroma(sum: number[]): [number, number] {
  const [r, g, b] = sum.map((v) => v + 1) as [number, number, number];
  return [Math.log(r / g), Math.log(b / g)];
}

/** The photo seen through `toPhoto` (working px -> photo px) on a W x H grid: grey (from `level`), RGB, and which pixels it holds. */
function samplePhoto(toPhoto: number[], W: number, H: number, level: GreyImage, scale: number, rgb: RgbImage) {
  const n = W * H;
  const grey = new Float32Array(n), inside = new Uint8Array(n);
  const out = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  const [a, b, c, d, e, f, g, h, k] = toPhoto as [number, number, number, number, number, number, number, number, number];
  for (let j = 0; j < H; j++) {
    for (let i = 0; i < W; i++) {
      const z = g * i + h * j + k;
      if (!(z > 1e-9)) continue;
      const px = (a * i + b * j + c) / z, py = (d * i + e * j + f) / z;
      const v = sample(level, (px + 0.5) / scale - 0.5, (py + 0.5) / scale - 0.5);
      if (Number.isNaN(v)) continue;
      const o = j * W + i;
      grey[o] = v;
      inside[o] = 1;
      if ((i & 1) === 0 && (j & 1) === 0) sampleRgb(rgb, px, py, out, o);
    }
  }
  return { grey, inside, rgb: out };
}

/** A reference's side of the check at one working size, computed once per reference and size (scans repeat them). */
interface ReferenceSide {
  grey: Float32Array;
  rgb: Float32Array[];
  gradients: { gx: Float32Array; gy: Float32Array };
}
const referenceSides = new WeakMap<Appearance, Map<number, ReferenceSide>>();

function referenceSide(app: Appearance, W: number, H: number): ReferenceSide {
  let sizes = referenceSides.get(app);
  if (!sizes) referenceSides.set(app, (sizes = new Map<number, ReferenceSide>()));
  const key = W * 65536 + H;
  const cached = sizes.get(key);
  if (cached) return cached;
  const T = app.grey, col = app.colour, f = W / T.width;
  const small = W === T.width && H === T.height ? T : areaResize(T, W, H);
  const grey = Float32Array.from(small.data.subarray(0, W * H));
  const rgb = [new Float32Array(W * H), new Float32Array(W * H), new Float32Array(W * H)];
  const csx = col.width / T.width, csy = col.height / T.height;
  for (let j = 0; j < H; j += 2) {
    for (let i = 0; i < W; i += 2) {
      // working px -> thumbnail px -> colour px
      const u = (i + 0.5) / f - 0.5, v = (j + 0.5) / f - 0.5;
      sampleRgb(col, (u + 0.5) * csx - 0.5, (v + 0.5) * csy - 0.5, rgb, j * W + i);
    }
  }
  const side = { grey, rgb, gradients: gradients(grey, W, H) };
  // a few sizes a reference: gifts are photographed at a few distances
  if (sizes.size >= 8) sizes.delete(sizes.keys().next().value!);
  sizes.set(key, side);
  return side;
}

/** One cell of the check: where it is placed, its texture, structure agreement and colours (tools read them). */
export interface Cell {
  placed: boolean;
  textured: boolean;
  /** the photo's RMS gradient over the cell */
  photoTexture: number;
  /** gradient correlation, best of the shifts */
  ncc: number;
  /** photo minus reference, ln(R/G) and ln(B/G) */
  dA: number;
  dB: number;
  satR: number;
  satQ: number;
  lR: number;
  lQ: number;
  background: boolean;
}

/** The rule over a check's cells (WHOLE_GIFT), `gx` cells a row. */
export function judge(all: Cell[], gx: number): WholeGiftCheck {
  const cfg = WHOLE_GIFT;
  const gift = all.filter((c) => !c.background);
  const cells = gift.filter((c) => c.placed);
  const empty: WholeGiftCells = { cells: gift.length, placed: cells.length, textured: 0, structure: 0, recoloured: 0, unlike: 0, holes: 0 };
  if (!cells.length) return { ...empty, passed: false, supported: 0, reason: 'outside' };
  // white balance: the shift of log-chromaticity common to the gift's cells
  const mA = median(cells.map((c) => c.dA)), mB = median(cells.map((c) => c.dB));
  const inGift = (c: Cell): boolean => c.placed && !c.background;
  const agrees = all.map((c) => inGift(c) && c.textured && c.ncc >= cfg.structure);
  const coloured = (c: Cell): boolean => (c.satR >= cfg.saturated || c.satQ >= cfg.saturated) && c.lR >= cfg.dark && c.lQ >= cfg.dark;
  const shiftOf = (c: Cell): number => Math.hypot(c.dA - mA, c.dB - mB);
  // the typical colour distance of the agreeing coloured cells: how far this photo's light moves colours anyway
  const typical = median(all.filter((c, i) => agrees[i] && coloured(c)).map(shiftOf));
  const recolouredFrom = Math.max(cfg.colour, cfg.colourOutlier * typical);
  let textured = 0, structure = 0, recoloured = 0, unlike = 0, holes = 0;
  const gy = Math.round(all.length / gx);
  for (let i = 0; i < all.length; i++) {
    const c = all[i]!;
    if (!inGift(c)) continue;
    if (c.textured) textured++;
    if (agrees[i]) {
      structure++;
      if (coloured(c) && shiftOf(c) > recolouredFrom) recoloured++;
      continue;
    }
    // a contradiction (both sides textured, unlike each other) between agreeing cells: another picture or title
    if (!(c.textured && c.photoTexture >= cfg.texture && c.ncc < cfg.unlike)) continue;
    unlike++;
    const x = i % gx, y = Math.floor(i / gx);
    const any = (from: number, to: number, step: number): boolean => {
      for (let k = from; k < to; k += step) if (agrees[k]) return true;
      return false;
    };
    const row = any(y * gx, i, 1) && any(i + 1, (y + 1) * gx, 1);
    const col = any(x, i, gx) && any(i + gx, gy * gx, gx);
    if (row || col) holes++;
  }
  const counts: WholeGiftCells = { ...empty, textured, structure, recoloured, unlike, holes };
  const supported = (structure - recoloured) / Math.max(1, gift.length);
  const fail = (reason: string): WholeGiftCheck => ({ ...counts, passed: false, supported, reason });
  if (structure < cfg.minAgree || structure < cfg.minAgreeShare * (structure + unlike)) return fail('structure');
  if (recoloured >= cfg.maxRecoloured && recoloured >= cfg.recolouredShare * structure) return fail('recoloured');
  if (holes > cfg.maxHoles) return fail('holes');
  return { ...counts, passed: true, supported };
}

function mul3(a: number[], b: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let q = 0; q < 3; q++) o[i * 3 + j]! += a[i * 3 + q]! * b[q * 3 + j]!;
  return o;
}
