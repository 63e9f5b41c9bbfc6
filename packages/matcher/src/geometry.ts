import { type CV } from './cv.ts';
import { type Features } from './features.ts';
import { type Correspondences } from './hamming.ts';

export interface Verification {
  inliers: number;
  /** inlier flags, parallel to the correspondences */
  mask: Uint8Array;
  /** fraction of the cells of a GRID x GRID partition of the reference image that hold an inlier */
  spread: number;
  /** same, in the query image */
  querySpread: number;
}

/** RANSAC homography with OpenCV (cv.findHomography). */
export function verifyHomographyCv(
  cv: CV,
  query: Features,
  ref: Features,
  c: Correspondences,
  method: number,
  threshold: number,
  maxIters = 2000,
  confidence = 0.995,
): Verification {
  const mask = new Uint8Array(c.count);
  if (c.count < 4) return { inliers: 0, mask, spread: 0, querySpread: 0 };
  const src = new cv.Mat(c.count, 1, cv.CV_32FC2);
  const dst = new cv.Mat(c.count, 1, cv.CV_32FC2);
  const inl = new cv.Mat();
  let h: import('./cv.ts').Mat | undefined;
  try {
    const s = src.data32F;
    const d = dst.data32F;
    for (let k = 0; k < c.count; k++) {
      const qi = c.q[k]!;
      const ri = c.r[k]!;
      s[2 * k] = ref.x[ri]!;
      s[2 * k + 1] = ref.y[ri]!;
      d[2 * k] = query.x[qi]!;
      d[2 * k + 1] = query.y[qi]!;
    }
    h = cv.findHomography(src, dst, method, threshold, inl, maxIters, confidence);
    if (h.empty() || inl.rows !== c.count) return { inliers: 0, mask, spread: 0, querySpread: 0 };
    let n = 0;
    const m = inl.data;
    for (let k = 0; k < c.count; k++) {
      if (m[k]) {
        mask[k] = 1;
        n++;
      }
    }
    return { inliers: n, mask, ...spread(query, ref, c, mask) };
  } finally {
    h?.delete();
    inl.delete();
    dst.delete();
    src.delete();
  }
}

export const GRID = 6;

/** Coverage of the inliers: fraction of GRID x GRID cells holding one, in the reference and in the query. */
export function spread(
  query: Features,
  ref: Features,
  c: Correspondences,
  mask: Uint8Array,
): { spread: number; querySpread: number } {
  const cq = new Uint8Array(GRID * GRID);
  const cr = new Uint8Array(GRID * GRID);
  let nq = 0;
  let nr = 0;
  for (let k = 0; k < c.count; k++) {
    if (!mask[k]) continue;
    const qi = c.q[k]!;
    const ri = c.r[k]!;
    const a = cell(query.x[qi]!, query.y[qi]!, query.width, query.height);
    const b = cell(ref.x[ri]!, ref.y[ri]!, ref.width, ref.height);
    if (!cq[a]) {
      cq[a] = 1;
      nq++;
    }
    if (!cr[b]) {
      cr[b] = 1;
      nr++;
    }
  }
  return { spread: nr / (GRID * GRID), querySpread: nq / (GRID * GRID) };
}

function cell(x: number, y: number, w: number, h: number): number {
  const cx = Math.min(GRID - 1, Math.max(0, Math.floor((x / w) * GRID)));
  const cy = Math.min(GRID - 1, Math.max(0, Math.floor((y / h) * GRID)));
  return cy * GRID + cx;
}
