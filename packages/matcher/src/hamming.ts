import { DESC_BYTES, layer, type Features } from './features.ts';

const WORDS = DESC_BYTES / 4;

/** Tentative correspondences: parallel arrays of query / reference keypoint indices. */
export interface Correspondences {
  q: Int32Array;
  r: Int32Array;
  /** Hamming distance of each correspondence */
  dist: Int32Array;
  count: number;
}

export function popcnt(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function words(f: Features): Uint32Array {
  return new Uint32Array(f.desc.buffer, f.desc.byteOffset, f.count * WORDS);
}

/**
 * Brute-force 2-nearest-neighbour Hamming matching of query descriptors against reference descriptors,
 * with Lowe's ratio test (d1 < ratio * d2) and, optionally, a mutual-nearest-neighbour (cross) check.
 * Plain JS, SWAR popcount on 32-bit words: about 2.5x faster than OpenCV.js's BFMatcher.knnMatch here.
 */
export function matchDescriptors(
  query: Features,
  ref: Features,
  ratio: number,
  crossCheck: boolean,
  maxDist = 256,
  /**
   * Second neighbours lying within this distance (px, reference image) of the first are the same structure seen
   * at another pyramid level or a pixel off, not a rival: the ratio test then uses the third neighbour instead.
   */
  sameSpot = 0,
): Correspondences {
  const qw = words(query);
  const rw = words(ref);
  const nq = query.count;
  const nr = ref.count;
  const best = new Int32Array(nq).fill(-1);
  const d1s = new Int32Array(nq);
  const d2s = new Int32Array(nq);
  const b2s = new Int32Array(nq);
  const d3s = new Int32Array(nq);
  const revBest = crossCheck ? new Int32Array(nr).fill(1 << 20) : undefined;
  const revIdx = crossCheck ? new Int32Array(nr).fill(-1) : undefined;
  for (let i = 0; i < nq; i++) {
    const o = i * WORDS;
    const a0 = qw[o]!, a1 = qw[o + 1]!, a2 = qw[o + 2]!, a3 = qw[o + 3]!;
    const a4 = qw[o + 4]!, a5 = qw[o + 5]!, a6 = qw[o + 6]!, a7 = qw[o + 7]!;
    let d1 = 1 << 20, d2 = 1 << 20, d3 = 1 << 20, b = -1, b2 = -1;
    for (let j = 0, p = 0; j < nr; j++, p += WORDS) {
      // SWAR popcount of the 8 xor-ed words, accumulated per byte lane (each lane <= 64, no overflow)
      let x = a0 ^ rw[p]!, y = a1 ^ rw[p + 1]!, z = a2 ^ rw[p + 2]!;
      x -= (x >>> 1) & 0x55555555; y -= (y >>> 1) & 0x55555555; z -= (z >>> 1) & 0x55555555;
      let t = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333) +
        (z & 0x33333333) + ((z >>> 2) & 0x33333333);
      let acc = (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
      x = a3 ^ rw[p + 3]!; y = a4 ^ rw[p + 4]!; z = a5 ^ rw[p + 5]!;
      x -= (x >>> 1) & 0x55555555; y -= (y >>> 1) & 0x55555555; z -= (z >>> 1) & 0x55555555;
      t = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333) +
        (z & 0x33333333) + ((z >>> 2) & 0x33333333);
      acc += (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
      x = a6 ^ rw[p + 6]!; y = a7 ^ rw[p + 7]!;
      x -= (x >>> 1) & 0x55555555; y -= (y >>> 1) & 0x55555555;
      t = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333);
      acc += (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
      acc = (acc & 0x00ff00ff) + ((acc >>> 8) & 0x00ff00ff);
      const d = (acc & 0xffff) + (acc >>> 16);
      if (d < d3) {
        if (d < d2) {
          d3 = d2;
          if (d < d1) {
            d2 = d1;
            b2 = b;
            d1 = d;
            b = j;
          } else {
            d2 = d;
            b2 = j;
          }
        } else d3 = d;
      }
      if (revBest && d < revBest[j]!) {
        revBest[j] = d;
        revIdx![j] = i;
      }
    }
    best[i] = b;
    d1s[i] = d1;
    d2s[i] = d2;
    b2s[i] = b2;
    d3s[i] = d3;
  }
  const near2 = sameSpot * sameSpot;
  const q = new Int32Array(nq);
  const r = new Int32Array(nq);
  const dist = new Int32Array(nq);
  let count = 0;
  for (let i = 0; i < nq; i++) {
    const b = best[i]!;
    if (b < 0) continue;
    const d1 = d1s[i]!;
    if (d1 > maxDist) continue;
    let second = d2s[i]!;
    const b2 = b2s[i]!;
    if (near2 > 0 && b2 >= 0) {
      const dx = ref.x[b]! - ref.x[b2]!, dy = ref.y[b]! - ref.y[b2]!;
      if (dx * dx + dy * dy <= near2) second = d3s[i]!;
    }
    if (d1 >= ratio * second) continue;
    if (revIdx && revIdx[b] !== i) continue;
    q[count] = i;
    r[count] = b;
    dist[count] = d1;
    count++;
  }
  return { q, r, dist, count };
}

/**
 * matchDescriptors per layer (grey with grey, each colour channel with the same channel), merged into one set of
 * correspondences indexing the whole feature sets. Layers only one side has (a reference enrolled before colour
 * layers existed) are skipped.
 */
export function matchLayers(query: Features, ref: Features, ratio: number, crossCheck: boolean, maxDist = 256, sameSpot = 0): Correspondences {
  const n = Math.min(query.layers.length, ref.layers.length) - 1;
  if (n === 1 && query.layers.length === 2 && ref.layers.length === 2) return matchDescriptors(query, ref, ratio, crossCheck, maxDist, sameSpot);
  const parts: Correspondences[] = [];
  for (let l = 0; l < n; l++) parts.push(matchDescriptors(layer(query, l), layer(ref, l), ratio, crossCheck, maxDist, sameSpot));
  const total = parts.reduce((a, p) => a + p.count, 0);
  const out: Correspondences = { q: new Int32Array(total), r: new Int32Array(total), dist: new Int32Array(total), count: total };
  let o = 0;
  parts.forEach((p, l) => {
    const qo = query.layers[l]!, ro = ref.layers[l]!;
    for (let k = 0; k < p.count; k++) {
      out.q[o + k] = p.q[k]! + qo;
      out.r[o + k] = p.r[k]! + ro;
      out.dist[o + k] = p.dist[k]!;
    }
    o += p.count;
  });
  return out;
}
