/**
 * One query's evidence against one reference: correspondences verified by a geometric model, its score and the
 * decision rule on inliers (README "Decision threshold"), and the share of the reference the inliers cover.
 */
import { CONFIG } from './config.ts';
import { type Features, layer } from './features.ts';
import { GRID } from './geometry.ts';
import { matchLayers } from './hamming.ts';
import { DEFAULT_VERIFY, verify, type VerifyOptions } from './verify.ts';

export interface PairEvidence {
  inliers: number;
  spread: number;
  score: number;
  /** the model of the evidence, reference -> query pixels (3x3 row-major), when there is one */
  map?: number[];
  /** compare() only: the inliers before the second look, and the second look's own when it was taken */
  firstLook?: number;
  secondLook?: number;
  /** compare() only: the zoomed look's inliers (the better of it and the second look from its model), when taken */
  zoomLook?: number;
  /** compare() only: the tilted look's inliers (the better of it and the second look from its model), when taken */
  tiltLook?: number;
}

export function verifyOptions(): VerifyOptions {
  return { ...DEFAULT_VERIFY, samePointPx: CONFIG.samePoint };
}

/** The early exit of CONFIG.colourGate: grey evidence this weak is the evidence; colour layers are not tried. */
export const gatedOut = (grey: PairEvidence): boolean => CONFIG.greyFirst && grey.inliers < CONFIG.colourGate;

/** Correspondences below which the grey verification cannot change what happens next (the bar, or the gate). */
export const greyNeeds = (): number => (CONFIG.greyFirst && CONFIG.colourGate > 0 ? Math.min(CONFIG.colourGate, CONFIG.minInliers) : CONFIG.minInliers);

/**
 * The evidence of one comparison; with fewer correspondences than `minCount` the verification is skipped (the count
 * of inliers cannot reach it; they are then reported as 0).
 */
export function evidence(query: Features, ref: Features, minCount: number): PairEvidence {
  const c = matchLayers(query, ref, CONFIG.ratio, 256, CONFIG.sameSpot);
  if (c.count < minCount) return { inliers: 0, spread: 0, score: 0 };
  const v = verify(query, ref, c, verifyOptions());
  return { inliers: v.inliers, spread: v.spread, score: scoreOf(v.inliers, v.spread), ...(v.map ? { map: v.map } : {}) };
}

export const better = (a: PairEvidence, b: PairEvidence): PairEvidence => (b.score > a.score || (b.score === a.score && b.inliers > a.inliers) ? b : a);

/**
 * Monotone in inliers and spread, 0..1, and >= 0.5 exactly when both pass the decision threshold:
 * min over the two criteria of x / (x + threshold), so 0.5 at the threshold, 0.8 at four times it.
 */
export function scoreOf(inliers: number, spread: number): number {
  if (inliers <= 0) return 0;
  const a = inliers / (inliers + CONFIG.minInliers);
  const b = CONFIG.minSpread > 0 ? spread / (spread + CONFIG.minSpread) : 1;
  const s = Math.floor(Math.min(a, b) * 1000) / 1000;
  // guard the boundary against floating-point noise: the decision is the integer/threshold test
  return accepts(inliers, spread) ? Math.max(0.5, s) : Math.min(0.499, s);
}

/** The decision rule (README "Decision threshold"). */
export function accepts(inliers: number, spread: number): boolean {
  return inliers >= CONFIG.minInliers && spread >= CONFIG.minSpread - 1e-9;
}

/** Share of a reference's feature-holding cells (GRID x GRID over its grey keypoints), computed once per reference. */
const featureCells = new WeakMap<Features, number>();
function cellsWithFeatures(ref: Features): number {
  let n = featureCells.get(ref);
  if (n !== undefined) return n;
  const grey = layer(ref, 0), seen = new Uint8Array(GRID * GRID);
  for (let i = 0; i < grey.count; i++) {
    const cx = Math.min(GRID - 1, Math.max(0, Math.floor((grey.x[i]! / grey.width) * GRID)));
    const cy = Math.min(GRID - 1, Math.max(0, Math.floor((grey.y[i]! / grey.height) * GRID)));
    seen[cy * GRID + cx] = 1;
  }
  n = Math.max(1, seen.reduce((a, b) => a + b, 0)) / (GRID * GRID);
  featureCells.set(ref, n);
  return n;
}

/** The share of the reference's feature-holding cells that hold an inlier of the evidence (0..1). */
export function coverageOfEvidence(e: PairEvidence, ref: Features): number {
  return Math.min(1, e.spread / cellsWithFeatures(ref));
}
