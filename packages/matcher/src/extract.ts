import { type CV, type Mat } from './cv.ts';
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
}

/**
 * ORB cannot place a keypoint within 31 px of the border (its descriptor patch), so a smaller picture has none;
 * it is not even handed to OpenCV, which misbehaves on pictures a few pixels wide.
 */
export const MIN_ORB_SIDE = 64;

export function extractFeatures(cv: CV, img: GreyImage, opts: ExtractOptions): Features {
  if (Math.min(img.width, img.height) < MIN_ORB_SIDE) return allocFeatures(img.width, img.height, 0);
  const src = new cv.Mat(img.height, img.width, cv.CV_8UC1);
  const mask = new cv.Mat();
  const kps = new cv.KeyPointVector();
  const desc = new cv.Mat();
  const detectN = opts.grid > 0 ? Math.round(opts.maxFeatures * opts.oversample) : opts.maxFeatures;
  const orb = new cv.ORB(detectN, opts.scaleFactor, opts.nLevels, 31, 0, 2, cv.ORB_HARRIS_SCORE, 31, opts.fastThreshold);
  try {
    src.data.set(img.data);
    try {
      orb.detectAndCompute(src, mask, kps, desc);
    } catch (err) {
      // OpenCV.js throws a bare number (a pointer to its exception) on a C++ error
      throw err instanceof Error ? err : new Error(`OpenCV ORB failed (${String(err)})`);
    }
    return toFeatures(img, kps, desc, opts);
  } finally {
    orb.delete();
    desc.delete();
    kps.delete();
    mask.delete();
    src.delete();
  }
}

function toFeatures(img: GreyImage, kps: import('./cv.ts').KeyPointVector, desc: Mat, opts: ExtractOptions): Features {
  const n = Math.min(kps.size(), desc.rows);
  const all: { i: number; x: number; y: number; size: number; angle: number; r: number }[] = [];
  for (let i = 0; i < n; i++) {
    const k = kps.get(i);
    all.push({ i, x: k.pt.x, y: k.pt.y, size: k.size, angle: k.angle, r: k.response });
  }
  let keep = all;
  all.sort((a, b) => b.r - a.r);
  if (opts.grid > 0 && all.length > opts.maxFeatures) keep = gridSelect(all, img.width, img.height, opts.grid, opts.maxFeatures);
  else keep = all.slice(0, opts.maxFeatures);
  // strongest first, so a prefix of the features is a cheap summary (used by the shortlist pass)
  keep.sort((a, b) => b.r - a.r);
  const f = allocFeatures(img.width, img.height, keep.length);
  const d = desc.data;
  keep.forEach((k, j) => {
    f.x[j] = k.x;
    f.y[j] = k.y;
    f.size[j] = k.size;
    f.angle[j] = k.angle;
    f.desc.set(d.subarray(k.i * DESC_BYTES, (k.i + 1) * DESC_BYTES), j * DESC_BYTES);
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
