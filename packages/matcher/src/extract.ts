import { type CV, type ORB } from './cv.ts';
import { describe, orbModel, pyramid, readKeypoints, roundEven, type DetectedKeypoints } from './describe.ts';
import { type GreyImage } from './decode.ts';
import { allocFeatures, DESC_BYTES, type Features } from './features.ts';

export interface ExtractOptions {
  /** ORB keypoints to keep */
  maxFeatures: number;
  /** ORB FAST threshold; lower finds corners in low-contrast photos */
  fastThreshold: number;
  /** pyramid levels and scale step */
  nLevels: number;
  scaleFactor: number;
  /**
   * If > 0: detect maxFeatures*oversample candidates and keep the strongest per cell of a grid x grid
   * partition, so keypoints cover the whole picture instead of piling up on one busy patch.
   */
  grid: number;
  oversample: number;
  /** false: OpenCV's detectAndCompute computes the descriptors (as before decision 033; same bits, more CPU) */
  ownDescriptors?: boolean;
}

/**
 * ORB cannot place a keypoint within 31 px of the border (its descriptor patch), so a smaller picture has none;
 * it is not even handed to OpenCV, which misbehaves on pictures a few pixels wide.
 */
export const MIN_ORB_SIDE = 64;

/** ORB detectors by setting, kept for the thread's life (constructing one per call cost a little every scan). */
const orbs = new Map<string, ORB>();

function orbFor(cv: CV, n: number, opts: ExtractOptions): ORB {
  const key = `${n}/${opts.scaleFactor}/${opts.nLevels}/${opts.fastThreshold}`;
  let orb = orbs.get(key);
  if (!orb) {
    orb = new cv.ORB(n, opts.scaleFactor, opts.nLevels, 31, 0, 2, cv.ORB_HARRIS_SCORE, 31, opts.fastThreshold);
    orbs.set(key, orb);
  }
  return orb;
}

/** Keypoints (positions in the image's frame) and their descriptors, in OpenCV's order. */
interface Detected {
  kp: DetectedKeypoints;
  desc: Uint8Array;
}

/**
 * OpenCV's ORB keypoints; the descriptors computed by describe.ts (the same bits, decision 033) when its check of
 * the loaded OpenCV module passed, else by OpenCV's detectAndCompute.
 */
function detect(cv: CV, img: GreyImage, n: number, opts: ExtractOptions): Detected {
  const orb = orbFor(cv, n, opts);
  const model = opts.ownDescriptors === false ? null : orbModel(cv);
  const src = new cv.Mat(img.height, img.width, cv.CV_8UC1);
  const mask = new cv.Mat();
  const kps = new cv.KeyPointVector();
  const desc = new cv.Mat();
  try {
    src.data.set(img.data);
    try {
      if (model) orb.detect(src, kps, mask);
      else orb.detectAndCompute(src, mask, kps, desc);
    } catch (err) {
      // OpenCV.js throws a bare number (a pointer to its exception) on a C++ error
      throw err instanceof Error ? err : new Error(`OpenCV ORB failed (${String(err)})`);
    }
    const kp = readKeypoints(kps);
    return { kp, desc: model ? describe(cv, model, img, kp, opts.scaleFactor) : desc.data.slice(0, kp.count * DESC_BYTES) };
  } finally {
    desc.delete();
    kps.delete();
    mask.delete();
    src.delete();
  }
}

export function extractFeatures(cv: CV, img: GreyImage, opts: ExtractOptions): Features {
  if (Math.min(img.width, img.height) < MIN_ORB_SIDE) return allocFeatures(img.width, img.height, 0);
  const detectN = opts.grid > 0 ? Math.round(opts.maxFeatures * opts.oversample) : opts.maxFeatures;
  const d = detect(cv, img, detectN, opts);
  return toFeatures(img, d.kp, d.desc, opts);
}

/**
 * How many keypoints ORB keeps on each pyramid level for n in all (OpenCV's float32 arithmetic: a geometric share
 * per level, rounded half to even, the rest to the last level).
 */
export function orbLevelCounts(n: number, scale: number, levels: number): number[] {
  const f = Math.fround(1 / scale);
  let share = Math.fround(Math.fround(n * Math.fround(1 - f)) / Math.fround(1 - Math.fround(f ** levels)));
  const out: number[] = [];
  let sum = 0;
  for (let l = 0; l < levels - 1; l++) {
    out.push(roundEven(share));
    sum += out[l]!;
    share = Math.fround(share * f);
  }
  out.push(Math.max(n - sum, 0));
  return out;
}

/** A photo's grey features in two steps: the base pyramid level at once, the others added when asked for. */
export interface SplitFeatures {
  /** the base level's keypoints, exactly those a whole extraction keeps there */
  first: Features;
  /** all levels: the same features as extractFeatures (computed once) */
  all(): Features;
}

/**
 * The features of extractFeatures in two steps (decision 033's first pass): ORB keeps a fixed number of keypoints
 * per pyramid level (orbLevelCounts), chosen within the level, so ORB on the base level alone, with that level's
 * number, keeps the same keypoints there as ORB on all levels; then each other level alone, on the picture ORB
 * builds for it, with its number, positions and sizes scaled back by the level's scale. null when a grid is asked
 * for (it selects across levels) or there is one level.
 */
export function extractSplit(cv: CV, img: GreyImage, opts: ExtractOptions): SplitFeatures | null {
  const counts = orbLevelCounts(opts.maxFeatures, opts.scaleFactor, opts.nLevels);
  if (opts.grid > 0 || opts.nLevels < 2 || Math.min(img.width, img.height) < MIN_ORB_SIDE) return null;
  const base = detect(cv, img, counts[0]!, { ...opts, nLevels: 1 });
  const first = toFeatures(img, base.kp, base.desc, { ...opts, maxFeatures: counts[0]! });
  let all: Features | undefined;
  return {
    first,
    all: () => {
      if (all) return all;
      // each upper level alone, on the picture ORB makes for it (sizes rounded from the base's, not level to level)
      let kp = base.kp, desc = base.desc;
      pyramid(cv, img, opts.scaleFactor, opts.nLevels - 1).forEach((lv, l) => {
        if (l === 0 || Math.min(lv.width, lv.height) < MIN_ORB_SIDE) return;
        const d = detect(cv, lv, counts[l]!, { ...opts, nLevels: 1 });
        kp = concatKeypoints(kp, d.kp, Math.fround(Math.fround(opts.scaleFactor) ** l), l);
        desc = concatBytes(desc, d.desc);
      });
      all = toFeatures(img, kp, desc, opts);
      return all;
    },
  };
}

/** a's keypoints, then b's (of pyramid level `level`) with positions and sizes scaled by s (float32, as ORB does). */
function concatKeypoints(a: DetectedKeypoints, b: DetectedKeypoints, s: number, level: number): DetectedKeypoints {
  const n = a.count + b.count;
  const join = <T extends Float32Array | Int32Array>(x: T, y: T, make: (n: number) => T, f: (v: number) => number): T => {
    const out = make(n);
    out.set(x, 0);
    for (let i = 0; i < y.length; i++) out[a.count + i] = f(y[i]!);
    return out;
  };
  const f32 = (k: number) => new Float32Array(k);
  const scaled = (v: number): number => Math.fround(v * s);
  const same = (v: number): number => v;
  return {
    count: n,
    x: join(a.x, b.x, f32, scaled),
    y: join(a.y, b.y, f32, scaled),
    size: join(a.size, b.size, f32, scaled),
    angle: join(a.angle, b.angle, f32, same),
    response: join(a.response, b.response, f32, same),
    octave: join(a.octave, b.octave, (k) => new Int32Array(k), () => level),
  };
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function toFeatures(img: GreyImage, kp: DetectedKeypoints, d: Uint8Array, opts: ExtractOptions): Features {
  const n = Math.min(kp.count, d.length / DESC_BYTES);
  // strongest first (a stable sort: equal responses keep OpenCV's order), so a prefix of the features is a cheap
  // summary (used by the shortlist pass)
  const all = Array.from({ length: n }, (_, i) => i).sort((a, b) => kp.response[b]! - kp.response[a]!);
  let keep = all.slice(0, opts.maxFeatures);
  if (opts.grid > 0 && n > opts.maxFeatures) {
    const pts = all.map((i) => ({ i, x: kp.x[i]!, y: kp.y[i]!, r: kp.response[i]! }));
    keep = gridSelect(pts, img.width, img.height, opts.grid, opts.maxFeatures)
      .sort((a, b) => b.r - a.r)
      .map((k) => k.i);
  }
  const f = allocFeatures(img.width, img.height, keep.length);
  keep.forEach((i, j) => {
    f.x[j] = kp.x[i]!;
    f.y[j] = kp.y[i]!;
    f.size[j] = kp.size[i]!;
    f.angle[j] = kp.angle[i]!;
    f.desc.set(d.subarray(i * DESC_BYTES, (i + 1) * DESC_BYTES), j * DESC_BYTES);
  });
  return f;
}

/** Keeps up to `max` keypoints, round-robin over grid cells, strongest first within each cell. */
function gridSelect<T extends { x: number; y: number; r: number }>(all: T[], w: number, h: number, grid: number, max: number): T[] {
  const cells: T[][] = Array.from({ length: grid * grid }, () => []);
  for (const k of all) {
    const cx = Math.min(grid - 1, Math.floor((k.x / w) * grid));
    const cy = Math.min(grid - 1, Math.floor((k.y / h) * grid));
    cells[cy * grid + cx]!.push(k);
  }
  for (const c of cells) c.sort((a, b) => b.r - a.r);
  const out: T[] = [];
  for (let round = 0; out.length < max; round++) {
    let any = false;
    for (const c of cells) {
      const k = c[round];
      if (k) {
        any = true;
        out.push(k);
        if (out.length >= max) break;
      }
    }
    if (!any) break;
  }
  return out;
}
