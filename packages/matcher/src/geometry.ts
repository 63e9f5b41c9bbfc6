import { type Features } from './features.ts';
import { type Correspondences } from './hamming.ts';

/** Spatial spread of a set of inliers, measured on a GRID x GRID partition of each image. */
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
