import { type CV, type ORB } from './cv.ts';
import { describe, orbModel, readKeypoints, type DetectedKeypoints } from './describe.ts';
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

/** ORB detectors by setting, kept per thread (constructing one per call cost a little every scan); see releaseOrbs. */
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

/** Frees the cached ORB detectors (a worker shutting down). */
export function releaseOrbs(): void {
  for (const orb of orbs.values()) orb.delete();
  orbs.clear();
}

/**
 * OpenCV's ORB keypoints; the descriptors computed by describe.ts (the same bits, decision 033) when its check of
 * the loaded OpenCV module passed, else by OpenCV's detectAndCompute.
 */
export function extractFeatures(cv: CV, img: GreyImage, opts: ExtractOptions): Features {
  if (Math.min(img.width, img.height) < MIN_ORB_SIDE) return allocFeatures(img.width, img.height, 0);
  const detectN = opts.grid > 0 ? Math.round(opts.maxFeatures * opts.oversample) : opts.maxFeatures;
  const orb = orbFor(cv, detectN, opts);
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
    const d = model ? describe(cv, model, img, kp, opts.scaleFactor) : desc.data.subarray(0, kp.count * DESC_BYTES);
    return toFeatures(img, kp, d, opts);
  } finally {
    desc.delete();
    kps.delete();
    mask.delete();
    src.delete();
  }
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
