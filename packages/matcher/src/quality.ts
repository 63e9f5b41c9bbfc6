/**
 * How recognisable a reference photo is, as a rating 1-5 with the reasons when it is low. Computed at enrolment from
 * the reference's grey features and the decoded grey image; calibrated on the data set's genuine pairs by
 * `npm run -s rating -- --pairs PAIRS.csv` (README "Recognisability rating", decision 031).
 */
import { decodeStaged, type GreyImage } from './decode.ts';
import { CONFIG } from './config.ts';
import { referencesMatch } from './engine.ts';
import { DESC_BYTES, type Features } from './features.ts';

export const QUALITY_REASONS = ['plain', 'blurred', 'small', 'repetitive', 'concentrated'] as const;
export type QualityReason = (typeof QUALITY_REASONS)[number];

/** The enrolment's quality report (engine.ts QualityReport, whose fields keep their meaning) with the rating. */
export interface RatedQuality extends QualityReport {
  /** 0..1, the rating's continuous value (the product of the factors) */
  score: number;
  /** 1..5 */
  rating: number;
  /** why the rating is low, worst first; empty at 4 and 5 */
  reasons: QualityReason[];
  /** exactly rating >= 3; `message` is the engine's TOO_LITTLE_DETAIL when not */
  recognisable: boolean;
}

/** The four factors behind the rating, each 0..1 where 1 is as good as it gets. */
export interface QualityFactors {
  /** grey keypoints found, against the reference's budget */
  detail: number;
  /** edge sharpness: high-frequency energy of the edges, against a sharp photo's */
  sharpness: number;
  /** area of the box holding the middle 90% of keypoints, against a photo filled with detail */
  extent: number;
  /** share of keypoints with no close twin elsewhere in the same photo */
  distinct: number;
}

export const RATING = {
  /** the reference's grey keypoint budget (engine CONFIG.refFeatures) */
  fullDetail: 800,
  /** edge sharpness (|Laplacian| / gradient on edges) at and above which a photo counts as sharp; sharp photos of
   * the data set measure 1.2-2.0, the same blurred by a 4 px Gaussian 0.21-0.25 */
  sharpEdges: 0.25,
  /** keypoint box area (fraction of the photo) at and above which the detail counts as filling the photo; the data
   * set's references measure 0.17-0.53, a gift at a fifth of the width 0.02-0.03 */
  fullExtent: 0.15,
  /** Hamming distance (of 256 bits) under which two keypoints of one photo are twins */
  twinDistance: 48,
  /** px: twins closer than this are one corner found at two pyramid levels, not a repetition */
  twinMinPx: 12,
  /** the raw measurements past which a reason is named */
  reasonPlain: 400,
  reasonBlurred: 0.5,
  reasonSmall: 0.08,
  reasonRepetitive: 0.5,
  /** score at or above which ratings 2, 3, 4, 5 start (about 22, 35, 60 and 100 genuine inliers, decision 031) */
  steps: [0.14, 0.23, 0.4, 0.65],
  /**
   * 'concentrated' when at least this share of the keypoints sits in a ninth of the photo (decision 056): a logo on a
   * plain box. It names the reason without changing the rating (the rating's steps were calibrated without it).
   */
  reasonConcentrated: 0.6,
};

/** The raw measurements of a reference. */
export interface QualityMeasures {
  keypoints: number;
  /** undefined when the photo has no edges at all (then it is plain, not blurred) */
  sharpness: number | undefined;
  /** undefined with under 10 keypoints (too few to say where the detail is) */
  extent: number | undefined;
  twins: number;
  /** the largest share of the keypoints in a ninth of the photo (decision 056); undefined with under 10 keypoints */
  concentration?: number;
}

export function measure(f: Features, grey: GreyImage): QualityMeasures {
  return { keypoints: f.count, sharpness: edgeSharpness(grey), extent: keypointExtent(f), twins: twinShare(f), concentration: keypointConcentration(f) };
}

/**
 * The largest share of keypoints in any 2 x 2 block of a 6 x 6 grid over the photo (a ninth of it): a logo on a plain
 * box puts most of its corners there. A scan that finds only the logo is refused by the whole-gift check (decision
 * 056), and a sibling product shares the logo, so the sender is asked for a side with more print.
 */
export function keypointConcentration(f: Features): number | undefined {
  if (f.count < 10) return undefined;
  const g = 6, cells = new Uint32Array(g * g);
  for (let i = 0; i < f.count; i++) {
    const cx = Math.min(g - 1, Math.max(0, Math.floor((f.x[i]! / f.width) * g)));
    const cy = Math.min(g - 1, Math.max(0, Math.floor((f.y[i]! / f.height) * g)));
    cells[cy * g + cx]!++;
  }
  let most = 0;
  for (let y = 0; y < g - 1; y++) for (let x = 0; x < g - 1; x++) most = Math.max(most, cells[y * g + x]! + cells[y * g + x + 1]! + cells[(y + 1) * g + x]! + cells[(y + 1) * g + x + 1]!);
  return most / f.count;
}

/** The factors 0..1 (1 = as good as it gets) whose product is the score. */
export function qualityFactors(m: QualityMeasures): QualityFactors {
  return {
    detail: Math.min(1, m.keypoints / RATING.fullDetail),
    sharpness: m.sharpness === undefined ? 1 : Math.min(1, m.sharpness / RATING.sharpEdges),
    extent: m.extent === undefined ? 1 : Math.min(1, m.extent / RATING.fullExtent),
    distinct: 1 - m.twins,
  };
}

/**
 * The reasons, cause before symptom: blur also removes corners, so a blurred photo is named blurred before plain.
 * A low rating (1-2) always names at least its weakest factor.
 */
export function reasonsFor(m: QualityMeasures, rating: number): QualityReason[] {
  const out: QualityReason[] = [];
  if (m.sharpness !== undefined && m.sharpness < RATING.reasonBlurred) out.push('blurred');
  if (m.extent !== undefined && m.extent < RATING.reasonSmall) out.push('small');
  if (m.twins > RATING.reasonRepetitive) out.push('repetitive');
  if (m.keypoints < RATING.reasonPlain) out.push('plain');
  if (m.concentration !== undefined && m.concentration >= RATING.reasonConcentrated) out.push('concentrated');
  if (out.length === 0 && rating <= 2) {
    const q = qualityFactors(m);
    const named: [QualityReason, number][] = [['plain', q.detail], ['blurred', q.sharpness], ['small', q.extent], ['repetitive', q.distinct]];
    out.push(named.sort((a, b) => a[1] - b[1])[0]![0]);
  }
  return out;
}

/** The rating from the measurements: the product of the factors (each lost one costs matches), in five steps. */
export function rate(m: QualityMeasures): RatedQuality {
  const q = qualityFactors(m);
  const score = Math.round(q.detail * q.sharpness * q.extent * q.distinct * 100) / 100;
  const rating = 1 + RATING.steps.filter((s) => score >= s).length;
  const reasons = reasonsFor(m, rating);
  const recognisable = rating >= 3;
  const base = { keypoints: m.keypoints, score, rating, reasons, recognisable };
  return recognisable ? base : { ...base, message: TOO_LITTLE_DETAIL };
}

/** Rates a reference: `grey` are its grey-layer features, `image` the photo they were extracted from. */
export async function rateReference(image: Buffer | Uint8Array, grey: Features): Promise<RatedQuality> {
  const d = await decodeStaged(image, Math.max(grey.width, grey.height));
  return rate(measure(grey, d.grey));
}

/**
 * Edge sharpness, independent of contrast: over the pixels on edges (gradient above a tenth of the strongest), the
 * mean |Laplacian| over the mean gradient. A step edge blurred over s px has a gradient ~1/s and a Laplacian ~1/s²,
 * so the ratio falls as 1/s. undefined for a photo without edges.
 */
export function edgeSharpness(img: GreyImage): number | undefined {
  const { width: w, height: h, data: p } = img;
  if (w < 3 || h < 3) return undefined;
  const grad = new Float32Array(w * h);
  const lap = new Float32Array(w * h);
  let max = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      const gx = p[i + 1]! - p[i - 1]!, gy = p[i + w]! - p[i - w]!;
      const g = Math.sqrt(gx * gx + gy * gy) / 2;
      grad[i] = g;
      lap[i] = Math.abs(p[i + 1]! + p[i - 1]! + p[i + w]! + p[i - w]! - 4 * p[i]!);
      if (g > max) max = g;
    }
  }
  // edges weaker than 8 grey levels per pixel are noise or shading, not detail
  const bar = Math.max(8, max / 10);
  let g = 0, l = 0;
  for (let i = 0; i < grad.length; i++) {
    if (grad[i]! < bar) continue;
    g += grad[i]!;
    l += lap[i]!;
  }
  return g > 0 ? l / g : undefined;
}

/** Area (fraction of the photo) of the box between the 5th and 95th percentile keypoint in x and in y. */
export function keypointExtent(f: Features): number | undefined {
  if (f.count < 10) return undefined;
  const span = (a: Float32Array, side: number): number => {
    const s = Float32Array.from(a).sort();
    return (s[Math.floor(0.95 * (s.length - 1))]! - s[Math.floor(0.05 * (s.length - 1))]!) / side;
  };
  return span(f.x, f.width) * span(f.y, f.height);
}

const POP = new Uint8Array(256).map((_, i) => {
  let c = 0;
  for (let v = i; v; v >>= 1) c += v & 1;
  return c;
});

/**
 * Share of keypoints with a twin: another keypoint of the same photo, at least twinMinPx away, whose descriptor is
 * within twinDistance bits. A scan's ratio test cannot tell twins apart, so their matches are thrown away.
 */
export function twinShare(f: Features): number {
  const n = f.count;
  if (n < 2) return 0;
  const twin = new Uint8Array(n);
  const d = f.desc;
  const far2 = RATING.twinMinPx * RATING.twinMinPx;
  for (let i = 0; i < n; i++) {
    const a = i * DESC_BYTES;
    for (let j = i + 1; j < n; j++) {
      if (twin[i] && twin[j]) continue;
      const dx = f.x[i]! - f.x[j]!, dy = f.y[i]! - f.y[j]!;
      if (dx * dx + dy * dy < far2) continue;
      const b = j * DESC_BYTES;
      let dist = 0;
      for (let k = 0; k < DESC_BYTES && dist <= RATING.twinDistance; k++) dist += POP[d[a + k]! ^ d[b + k]!]!;
      if (dist <= RATING.twinDistance) twin[i] = twin[j] = 1;
    }
  }
  return twin.reduce((s, v) => s + v, 0) / n;
}

/**
 * Whether a scan could not tell `reference` from any of `others` (two identical boxes for one recipient): true at
 * the first that referencesMatch. A blob that is not a reference rejects (MatcherError invalid_reference).
 */
export function matchesAny(reference: Uint8Array, others: Uint8Array[]): boolean {
  return others.some((o) => referencesMatch(reference, o).matched);
}

export interface QualityReport {
  keypoints: number;
  /** 0..1 */
  score: number;
  recognisable: boolean;
  message?: string;
}

export const TOO_LITTLE_DETAIL =
  'This photo has too little detail to be recognised reliably — add a photo of the box, label or tag';

/** How recognisable a reference is: enough grey keypoints, spread over the picture. */
export function assessQuality(f: Features): QualityReport {
  const cells = new Uint8Array(36);
  for (let i = 0; i < f.count; i++) {
    const cx = Math.min(5, Math.floor((f.x[i]! / f.width) * 6));
    const cy = Math.min(5, Math.floor((f.y[i]! / f.height) * 6));
    cells[cy * 6 + cx] = 1;
  }
  const coverage = cells.reduce((a, b) => a + b, 0) / 36;
  const density = Math.min(1, f.count / CONFIG.refFeatures);
  const score = Math.round(Math.min(density, 0.4 + coverage) * 100) / 100;
  const recognisable = f.count >= 200 && coverage >= 0.2;
  return recognisable
    ? { keypoints: f.count, score, recognisable }
    : { keypoints: f.count, score, recognisable, message: TOO_LITTLE_DETAIL };
}
