/**
 * ORB descriptors computed here instead of in OpenCV.js, for OpenCV's own keypoints (`ORB.detect`), giving the same
 * bits as `ORB.detectAndCompute` (decision 033). Why: OpenCV.js is a scalar WebAssembly build, and its 7 × 7 Gaussian
 * blur of every pyramid level was half of a scan's ORB time; the blur below is the same integer arithmetic, done
 * with a symmetric kernel on typed arrays only where descriptors sample.
 *
 * Nothing of OpenCV's is copied into this file: the two things a descriptor needs from it are read from the loaded
 * module once per thread and checked against OpenCV's own output before use (`calibrate`), and the engine falls back
 * to `detectAndCompute` when the check fails:
 * - the blur's fixed-point kernel, from OpenCV blurring a one-pixel line (ORB blurs each level as a region of
 *   its pyramid buffer, which takes OpenCV's separable fixed-point filter with 8-bit coefficients);
 * - the 256 point pairs of ORB's sampling pattern (patch size 31), found in the module's memory as the only run of
 *   1024 small integers that reproduces OpenCV's descriptors bit for bit.
 */
import { readFileSync } from 'node:fs';
import { type CV, type KeyPointVector, type Mat, type ORB } from './cv.ts';
import { type GreyImage } from './decode.ts';
import { DESC_BYTES } from './features.ts';

/** What `calibrate` learnt from the loaded OpenCV module. */
export interface OrbModel {
  /** blur kernel, float32, centre first (7 taps) */
  kernel: Float32Array;
  /** 512 points (x, y): pairs (2i, 2i + 1) give bit i of the descriptor */
  pattern: Int8Array;
}

const RADIUS = 3;
/** ORB's sampling pattern spans a 31 × 31 patch: coordinates in -15..15 */
const PATCH_HALF = 15;
const PATTERN_INTS = 1024;
const POINTS = PATTERN_INTS / 2;

interface OrbKernel {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  rows(src: number, w: number, y0: number, y1: number, rows: number, k0: number, k1: number, k2: number, k3: number): void;
  cols(rows: number, w: number, from: number, to: number, out: number, ties: number, k0: number, k1: number, k2: number, k3: number): number;
  describe(kps: number, n: number, pat: number, w: number, out: number, scr: number): void;
}

/** The WebAssembly blur and sampling (src/orb.wat), per thread. */
let orbKernel: OrbKernel | undefined;
function loadKernel(): OrbKernel {
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const bytes = readFileSync(new URL('./orb.wasm', import.meta.url));
  return new wasm.Instance(new wasm.Module(bytes), {}).exports as OrbKernel;
}

/** Where a level's data lie in the kernel's memory: image, row sums, blurred image, ties, keypoints, pattern, output. */
function layout(w: number, h: number, keypoints: number) {
  const n = w * h;
  const rowsAt = align(n + 16), outAt = rowsAt + 4 * n, tiesAt = outAt + align(n);
  const kpsAt = align(tiesAt + 4 * (Math.ceil(n / 4) + h + 4));
  const patAt = align(kpsAt + 12 * keypoints);
  const scrAt = patAt + 8 * POINTS;
  const descAt = scrAt + 5 * POINTS;
  return { rowsAt, outAt, tiesAt, kpsAt, patAt, scrAt, descAt, end: descAt + DESC_BYTES * keypoints };
}

/** The kernel, its memory grown to at least `bytes`. */
function kernelFor(bytes: number): OrbKernel {
  const K = (orbKernel ??= loadKernel());
  const have = K.memory.buffer.byteLength;
  if (have < bytes) K.memory.grow(Math.ceil((bytes - have) / 65536));
  return K;
}

/** The two WebAssembly JS API constructors used here (TypeScript declares them only in its DOM library). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

const align = (n: number): number => (n + 15) & ~15;

/**
 * The blur of ORB's descriptor stage (GaussianBlur 7 × 7, sigma 2, BORDER_REFLECT_101 on a region of the pyramid
 * buffer, which OpenCV runs as a separable float32 filter, rounded half to even), for rows from..to-1 and columns
 * 3..width-4: the pixels a descriptor can sample, since ORB keeps keypoints 31 px from every side and its pattern
 * reaches 22 px. Summed in float32 by blur.wasm in another order than OpenCV's, which moves a sum by far less than
 * 0.0003 (a float32 sum of 7 terms up to 255 is off by under 1e-4); a pixel that close to a rounding tie is recomputed in OpenCV's order (exactPixel), so the result is
 * OpenCV's own. The returned view lives in the kernel's memory until the next call; other pixels are undefined.
 */
export function blurRows(src: GreyImage, k: Float32Array, from: number, to: number, keypoints = 0): Uint8Array {
  const { width: w, height: h } = src;
  const n = w * h;
  const { rowsAt, outAt, tiesAt, end } = layout(w, h, keypoints);
  const K = kernelFor(end);
  new Uint8Array(K.memory.buffer).set(src.data, 0);
  const y0 = Math.max(RADIUS, from), y1 = Math.min(h - RADIUS, to);
  const out = new Uint8Array(K.memory.buffer, outAt, n);
  if (y1 <= y0 || w < 10) return out;
  const [k0, k1, k2, k3] = k as unknown as [number, number, number, number];
  K.rows(0, w, y0 - RADIUS, y1 + RADIUS, rowsAt, k0, k1, k2, k3);
  const nTies = K.cols(rowsAt, w, y0, y1, outAt, tiesAt, k0, k1, k2, k3);
  const ties = new Int32Array(K.memory.buffer, tiesAt, nTies);
  for (const t of ties) {
    const y = Math.floor(t / w), x0 = t - y * w;
    for (let x = x0; x < x0 + 4; x++) out[t + x - x0] = Math.max(0, Math.min(255, exactPixel(src, k, x, y)));
  }
  return out;
}

/** One blurred pixel in OpenCV's float32 arithmetic: rows left to right, then columns with symmetric pairs first. */
function exactPixel(src: GreyImage, k: Float32Array, x: number, y: number): number {
  const { width: w, height: h, data: p } = src;
  const f = Math.fround;
  const row = (yy: number): number => {
    const o = reflect(yy, h) * w;
    let s = 0;
    for (let d = -RADIUS; d <= RADIUS; d++) s = f(s + f(k[Math.abs(d)]! * p[o + reflect(x + d, w)]!));
    return s;
  };
  let s = f(k[0]! * row(y));
  for (let d = 1; d <= RADIUS; d++) s = f(s + f(k[d]! * f(row(y + d) + row(y - d))));
  return roundEven(s);
}

/** OpenCV's Gaussian kernel of 7 taps and sigma 2 (normalised in double, stored as float32), centre first. */
export const GAUSS_7 = ((): Float32Array => {
  const g = Array.from({ length: RADIUS + 1 }, (_, d) => Math.exp(-(d * d) / (2 * 2 * 2)));
  const sum = g[0]! + 2 * (g[1]! + g[2]! + g[3]!);
  return Float32Array.from(g, (v) => v / sum);
})();

/** The scale of pyramid level l as ORB computes it: its step is a float32 (ORB::create takes a float), raised in double, stored as float32. */
const levelScale = (step: number, l: number): number => Math.fround(Math.fround(step) ** l);

export interface DetectedKeypoints {
  count: number;
  /** level-0 position, size, angle (degrees), response and pyramid level of each keypoint, as OpenCV returned them */
  x: Float32Array;
  y: Float32Array;
  size: Float32Array;
  angle: Float32Array;
  response: Float32Array;
  octave: Int32Array;
}

/** Copies an OpenCV KeyPointVector into typed arrays (one pass over the embind objects). */
export function readKeypoints(kps: KeyPointVector): DetectedKeypoints {
  const n = kps.size();
  const out: DetectedKeypoints = {
    count: n,
    x: new Float32Array(n),
    y: new Float32Array(n),
    size: new Float32Array(n),
    angle: new Float32Array(n),
    response: new Float32Array(n),
    octave: new Int32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const k = kps.get(i);
    out.x[i] = k.pt.x;
    out.y[i] = k.pt.y;
    out.size[i] = k.size;
    out.angle[i] = k.angle;
    out.response[i] = k.response;
    out.octave[i] = k.octave;
  }
  return out;
}

/**
 * The pyramid ORB builds for an image (level l: the level above resized with INTER_LINEAR_EXACT to the image's size
 * divided by step^l, rounded), up to and including `top`.
 */
export function pyramid(cv: CV, base: GreyImage, step: number, top: number): GreyImage[] {
  const levels: GreyImage[] = [base];
  if (top === 0) return levels;
  const mats: Mat[] = [];
  try {
    let prev = new cv.Mat(base.height, base.width, cv.CV_8UC1);
    mats.push(prev);
    prev.data.set(base.data);
    for (let l = 1; l <= top; l++) {
      // as ORB sizes a level: the image's size times the float32 inverse of the level's scale, rounded half to even
      const inv = Math.fround(1 / levelScale(step, l));
      const w = roundEven(Math.fround(base.width * inv)), h = roundEven(Math.fround(base.height * inv));
      const next = new cv.Mat();
      mats.push(next);
      cv.resize(prev, next, new cv.Size(w, h), 0, 0, cv.INTER_LINEAR_EXACT);
      levels.push({ width: w, height: h, data: next.data.slice(0, w * h) });
      prev = next;
    }
  } finally {
    for (const m of mats) m.delete();
  }
  return levels;
}

/**
 * ORB descriptors (32 bytes each, WTA_K 2, patch 31) of OpenCV-detected keypoints of `image`, in their order: for
 * each keypoint the blurred pyramid level is sampled at the pattern's 512 points rotated by the keypoint's angle.
 */
export function describe(cv: CV, model: OrbModel, image: GreyImage, kp: DetectedKeypoints, step: number): Uint8Array {
  const desc = new Uint8Array(kp.count * DESC_BYTES);
  if (kp.count === 0) return desc;
  let top = 0;
  for (let i = 0; i < kp.count; i++) top = Math.max(top, kp.octave[i]!);
  const levels = pyramid(cv, image, step, top);
  levels.forEach((lv, l) => {
    const inv = Math.fround(1 / levelScale(step, l));
    const w = lv.width;
    const mine: number[] = [];
    // only the rows this level's keypoints sample (the pattern reaches 22 px from a keypoint)
    let lo = lv.height, hi = 0;
    for (let i = 0; i < kp.count; i++) {
      if (kp.octave[i] !== l) continue;
      mine.push(i);
      const cy = Math.round(Math.fround(kp.y[i]! * inv));
      lo = Math.min(lo, cy - PATCH_HALF - 7);
      hi = Math.max(hi, cy + PATCH_HALF + 8);
    }
    if (!mine.length) return;
    blurRows(lv, model.kernel, lo, hi, mine.length);
    const at = layout(w, lv.height, mine.length);
    const K = kernelFor(at.end);
    const i32 = new Int32Array(K.memory.buffer, at.kpsAt, 3 * mine.length);
    const f32 = new Float32Array(K.memory.buffer, at.kpsAt, 3 * mine.length);
    mine.forEach((i, j) => {
      i32[3 * j] = at.outAt + Math.round(Math.fround(kp.y[i]! * inv)) * w + Math.round(Math.fround(kp.x[i]! * inv));
      const angle = Math.fround(kp.angle[i]! * Math.fround(Math.PI / 180));
      f32[3 * j + 1] = Math.cos(angle);
      f32[3 * j + 2] = Math.sin(angle);
    });
    new Float32Array(K.memory.buffer, at.patAt, 2 * POINTS).set(kernelPattern(model));
    K.describe(at.kpsAt, mine.length, at.patAt, w, at.descAt, at.scrAt);
    const out = new Uint8Array(K.memory.buffer, at.descAt, DESC_BYTES * mine.length);
    mine.forEach((i, j) => desc.set(out.subarray(j * DESC_BYTES, (j + 1) * DESC_BYTES), i * DESC_BYTES));
  });
  return desc;
}

/** The pattern as orb.wat reads it: x of the pairs' first points, x of their second points, then the same for y. */
const patterns = new WeakMap<OrbModel, Float32Array>();
function kernelPattern(m: OrbModel): Float32Array {
  let out = patterns.get(m);
  if (!out) {
    const o = new Float32Array(2 * POINTS);
    for (let pair = 0; pair < POINTS / 2; pair++) {
      for (let second = 0; second < 2; second++) {
        const point = 2 * pair + second, slot = second * (POINTS / 2) + pair;
        o[slot] = m.pattern[2 * point]!;
        o[POINTS + slot] = m.pattern[2 * point + 1]!;
      }
    }
    patterns.set(m, (out = o));
  }
  return out;
}

export function roundEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && (r & 1) !== 0 ? r - 1 : r;
}

let model: OrbModel | null | undefined;

/** The OpenCV module's blur kernel and ORB pattern, checked against its own descriptors; null when they cannot be. */
export function orbModel(cv: CV): OrbModel | null {
  if (model === undefined) model = calibrate(cv);
  return model;
}

/** The ORB settings of every descriptor-stage check: like the engine's, patch 31, WTA_K 2, Harris score. */
function makeOrb(cv: CV, n: number, levels: number, step: number): ORB {
  return new cv.ORB(n, step, levels, 31, 0, 2, cv.ORB_HARRIS_SCORE, 31, 20);
}

function calibrate(cv: CV): OrbModel | null {
  const kernel = kernelOf(cv);
  if (!kernel) return null;
  const test = testImage(640, 480);
  const ref = opencvDescriptors(cv, test, 600, 4, 1.2);
  if (ref.kp.count < 100) return null;
  const heap = (cv as unknown as { HEAP32?: Int32Array }).HEAP32;
  if (!heap) return null;
  // candidate runs of 1024 int32 values all within the patch, most of them non-zero
  const limit = heap.length - PATTERN_INTS;
  let run = 0;
  for (let i = 0; i < heap.length; i++) {
    const v = heap[i]!;
    run = v >= -PATCH_HALF && v <= PATCH_HALF ? run + 1 : 0;
    if (run < PATTERN_INTS) continue;
    const start = i - PATTERN_INTS + 1;
    if (start > limit) break;
    let zeros = 0;
    for (let j = start; j <= i; j++) if (heap[j] === 0) zeros++;
    if (zeros > PATTERN_INTS / 8) continue;
    const candidate = { kernel, pattern: Int8Array.from(heap.subarray(start, i + 1)) };
    const ours = describe(cv, candidate, test, ref.kp, 1.2);
    if (ours.every((v, k) => v === ref.desc[k])) return candidate;
  }
  return null;
}

/** OpenCV's own keypoints and descriptors of a grey image. */
export function opencvDescriptors(cv: CV, img: GreyImage, n: number, levels: number, step: number): { kp: DetectedKeypoints; desc: Uint8Array } {
  const src = new cv.Mat(img.height, img.width, cv.CV_8UC1);
  const mask = new cv.Mat(), kps = new cv.KeyPointVector(), d = new cv.Mat();
  const orb = makeOrb(cv, n, levels, step);
  try {
    src.data.set(img.data);
    orb.detectAndCompute(src, mask, kps, d);
    return { kp: readKeypoints(kps), desc: d.data.slice(0, kps.size() * DESC_BYTES) };
  } finally {
    for (const o of [orb, d, kps, mask, src]) o.delete();
  }
}

/** GAUSS_7 if blurRows with it gives OpenCV's own blur of a region (ORB's case) inside a noise image, else null. */
function kernelOf(cv: CV): Float32Array | null {
  const noise = testImage(97, 61);
  const theirs = opencvRegionBlur(cv, noise);
  const ours = blurRows(noise, GAUSS_7, 0, noise.height);
  let bad = 0;
  for (let y = RADIUS; y < noise.height - RADIUS; y++) {
    for (let x = RADIUS; x < noise.width - RADIUS; x++) if (ours[y * noise.width + x] !== theirs[y * noise.width + x]) bad++;
  }
  return bad === 0 ? GAUSS_7 : null;
}

/** cv.GaussianBlur(7 × 7, sigma 2, BORDER_REFLECT_101) of an image placed as a region of a buffer 8 px larger. */
export function opencvRegionBlur(cv: CV, img: GreyImage): Uint8Array {
  const pad = 8;
  const big = new cv.Mat(img.height + 2 * pad, img.width + 2 * pad, cv.CV_8UC1);
  const out = new cv.Mat();
  const roi = big.roi(new cv.Rect(pad, pad, img.width, img.height));
  try {
    // the padding holds the image reflected, as copyMakeBorder(BORDER_REFLECT_101) leaves ORB's pyramid levels
    const bw = img.width + 2 * pad;
    for (let y = 0; y < img.height + 2 * pad; y++) {
      for (let x = 0; x < bw; x++) big.data[y * bw + x] = img.data[reflect(y - pad, img.height) * img.width + reflect(x - pad, img.width)]!;
    }
    cv.GaussianBlur(roi, out, new cv.Size(7, 7), 2, 2, cv.BORDER_REFLECT_101);
    return out.data.slice(0, img.width * img.height);
  } finally {
    roi.delete();
    out.delete();
    big.delete();
  }
}

function reflect(i: number, n: number): number {
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
  return i;
}

/** A deterministic textured test image: blocks, gradients and noise, so ORB finds corners at every level. */
function testImage(w: number, h: number): GreyImage {
  const data = new Uint8Array(w * h);
  let s = 12345;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const blocks = Array.from({ length: 60 }, () => ({ x: rnd() * w, y: rnd() * h, r: 4 + rnd() * 40, v: rnd() * 255 }));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = (x * 0.2 + y * 0.1) % 255;
      for (const b of blocks) if (Math.abs(x - b.x) < b.r && Math.abs(y - b.y) < b.r * 0.7) v = b.v;
      data[y * w + x] = Math.max(0, Math.min(255, Math.round(v + (rnd() - 0.5) * 24)));
    }
  }
  return { width: w, height: h, data };
}
