/**
 * The recognition engine, in-thread: enrol a reference photo, match a query photo against candidate gifts.
 * See README.md for the recipe, the measurements behind every constant and the decision threshold.
 */
import { loadCv } from './cv.ts';
import { decodeStaged } from './decode.ts';
import { MatcherError } from './errors.ts';
import { extractFeatures, extractSplit, type ExtractOptions } from './extract.ts';
import { deserialise, layer, pick, serialise, stackLayers, subsample, type Features } from './features.ts';
import { matchLayers } from './hamming.ts';
import { rateReference, type RatedQuality } from './quality.ts';
import { DEFAULT_VERIFY, verify, type VerifyOptions } from './verify.ts';

export interface QualityReport {
  keypoints: number;
  /** 0..1 */
  score: number;
  recognisable: boolean;
  message?: string;
}

export interface EnrolResult {
  /** compact serialised features, stored in a DB blob column */
  reference: Uint8Array;
  quality: RatedQuality;
}

export interface MatchDecision {
  matched: boolean;
  /** index into references[] of the best candidate, -1 if none */
  bestIndex: number;
  /** 0..1; >= 0.5 exactly when matched */
  score: number;
  inliers: number;
  ms: number;
}

export const TOO_LITTLE_DETAIL =
  'This photo has too little detail to be recognised reliably — add a photo of the box, label or tag';

export const CONFIG = {
  /** reference photos are normalised to fit inside this square */
  refSide: 640,
  refFeatures: 800,
  refLevels: 8,
  /** queries (already <= 600 px from the browser) are normalised to fit inside this square */
  querySide: 540,
  queryFeatures: 1000,
  /**
   * 4 levels x 1.2 cover a gift up to 1.7x larger in the query than in the reference (smaller: the reference's 8).
   * Was 6 (decision 026); 4 puts more of the 1000 keypoints on the base level, where small gifts are (decision 028).
   */
  queryLevels: 4,
  queryScale: 1.2,
  /**
   * Scans are decided on the grey layer first; the colour layers are extracted and matched only when the grey
   * evidence stays under the bar. The evidence is the better of grey alone and grey + colour pooled, so the decision
   * is the same whichever order (README "Cheaper scans"). false = always both (the recipe before, for the bench).
   */
  greyFirst: true,
  /**
   * Early exit (with greyFirst): the colour layers are only tried when the grey layer alone found at least this many
   * geometrically consistent correspondences for the best candidate; under it the frame shows no known gift as far
   * as grey can tell, and colour is not worth its CPU. 0 = always try colour when grey stays under the bar.
   * Set by cross-validation and the hard cases (README "Cheaper scans", decision 028).
   */
  colourGate: 1,
  /**
   * Two more feature layers from colour-opponent channels (red-green, yellow-blue) at half size, on both sides:
   * corners between coloured parts that grey texture around them drowns out (toy blocks on a carpet).
   */
  chromaStep: 2,
  chromaFeatures: 300,
  refChromaLevels: 5,
  queryChromaLevels: 2,
  fastThreshold: 20,
  grid: 0,
  ratio: 0.8,
  /** px in the reference: a second neighbour this close to the first is the same spot, not a rival (ratio test) */
  sameSpot: 10,
  /** px: keypoints in the same cell of this size, on one side, count as one point (a corner found in two layers) */
  samePoint: 3,
  /** with more references than this, a cheap first pass (strongest features only) picks which to verify fully */
  shortlist: 3,
  shortlistQueryFeatures: 330,
  shortlistRefFeatures: 270,
  /**
   * decision: at least this many geometrically consistent, one-to-one correspondences. Set by leave-gifts-out
   * cross-validation (`npm run -s crossval`, README "Calibration", decision 028): with ratio 0.8 the worst impostor of
   * the data set is 11, plus a margin of 4, the smallest margin whose bar, set on the training gifts of each of 5
   * folds, clears every held-out impostor by at least 2 inliers. (Ratio 0.85, decision 026: 18 + 4 = 22.)
   */
  minInliers: 15,
  /**
   * ... spread over at least this fraction of the reference's 6x6 grid cells. Cross-validation never found a fold
   * where a spread condition (1..6 cells) changed a decision at the bar above, so there is none (was 3/36).
   */
  minSpread: 0,
  /**
   * ORB descriptors computed by describe.ts (WebAssembly blur and sampling, the same bits as OpenCV's) for OpenCV's
   * keypoints; false = OpenCV.js's detectAndCompute (before decision 033, for the bench's earlier recipes).
   */
  ownDescriptors: true,
  /** false = read the photo's header before decoding it, as before decision 033 (the bench's earlier recipes) */
  decodeInOnePass: true,
  /**
   * First pass (with greyFirst): a scan is compared on the grey keypoints of the base pyramid level alone (322 of
   * the 1000, exactly those the whole extraction keeps there) and accepted at once when they reach the bar; only
   * otherwise are the other levels extracted and compared. The evidence is the better of the two (decision 033).
   */
  firstPass: true,
};

/** The base level's keypoints in a grey layer: ORB gives them the patch size (31 px) unscaled. */
const BASE_LEVEL_SIZE = 31;

function extractOptions(n: number, levels: number, scale = 1.2): ExtractOptions {
  return { maxFeatures: n, fastThreshold: CONFIG.fastThreshold, nLevels: levels, scaleFactor: scale, grid: CONFIG.grid, oversample: 2, ownDescriptors: CONFIG.ownDescriptors };
}

/**
 * A photo's features in stages, each computed once when first asked for: the base pyramid level's grey keypoints
 * (with CONFIG.firstPass), all grey keypoints, then grey + colour layers.
 */
export interface StagedFeatures {
  /** the base level's grey features (a subset of grey(), in the same order); undefined without a first pass */
  first?: Features;
  grey(): Features;
  all(): Features;
}

async function extractStaged(image: Buffer | Uint8Array, side: number, features: number, levels: number, chromaLevels: number, scale: number, firstPass = false): Promise<StagedFeatures> {
  const d = await decodeStaged(image, side, !CONFIG.decodeInOnePass);
  const cv = await loadCv();
  const opts = extractOptions(features, levels, scale);
  const split = firstPass ? extractSplit(cv, d.grey, opts) : null;
  let grey: Features | undefined = split ? undefined : extractFeatures(cv, d.grey, opts);
  let all: Features | undefined;
  const greyAll = (): Features => (grey ??= split!.all());
  return {
    ...(split ? { first: split.first } : {}),
    grey: greyAll,
    all: () => {
      if (all) return all;
      const step = CONFIG.chromaStep;
      const chroma = d.chroma(step);
      const parts = [greyAll(), ...chroma.map((c) => extractFeatures(cv, c, extractOptions(CONFIG.chromaFeatures, chromaLevels)))];
      all = stackLayers(parts, [1, ...chroma.map(() => step)], [0, ...chroma.map(() => (step - 1) / 2)]);
      return all;
    },
  };
}

export async function extractReference(image: Buffer | Uint8Array): Promise<Features> {
  return (await extractStaged(image, CONFIG.refSide, CONFIG.refFeatures, CONFIG.refLevels, CONFIG.refChromaLevels, 1.2)).all();
}

export function stageQuery(image: Buffer | Uint8Array): Promise<StagedFeatures> {
  return extractStaged(image, CONFIG.querySide, CONFIG.queryFeatures, CONFIG.queryLevels, CONFIG.queryChromaLevels, CONFIG.queryScale, CONFIG.greyFirst && CONFIG.firstPass);
}

export async function extractQuery(image: Buffer | Uint8Array): Promise<Features> {
  return (await stageQuery(image)).all();
}

export async function enrol(image: Buffer | Uint8Array): Promise<EnrolResult> {
  const f = await extractReference(image);
  const quality = await rateReference(image, layer(f, 0));
  return { reference: serialise(f), quality };
}

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

export interface PairEvidence {
  inliers: number;
  spread: number;
  score: number;
}

function verifyOptions(): VerifyOptions {
  return { ...DEFAULT_VERIFY, samePointPx: CONFIG.samePoint };
}

/**
 * One query against one reference, the engine's evidence: the better of the grey layers alone and all layers pooled,
 * except that grey evidence under CONFIG.colourGate is the evidence (the early exit). With CONFIG.firstPass the grey
 * evidence is the better of the base level's grey keypoints and all grey keypoints. match() computes the later
 * stages only when the earlier ones stay under the bar. The evidence does not depend on the bar (calibration tunes
 * the bar on it). `exact` = false skips verifications whose correspondences are too few to matter (inliers are then
 * reported as 0).
 */
export function compare(query: Features, ref: Features, exact = true): PairEvidence {
  const qGrey = layer(query, 0), rGrey = layer(ref, 0);
  let g = evidence(qGrey, rGrey, exact ? 0 : greyNeeds());
  if (CONFIG.greyFirst && CONFIG.firstPass) g = better(evidence(baseLevel(qGrey), rGrey, exact ? 0 : CONFIG.minInliers), g);
  if (query.layers.length <= 2 || ref.layers.length <= 2 || gatedOut(g)) return g;
  return better(g, evidence(query, ref, exact ? 0 : CONFIG.minInliers));
}

/** The grey keypoints of the base pyramid level (what the first pass compares), in their order. */
function baseLevel(grey: Features): Features {
  const idx: number[] = [];
  for (let i = 0; i < grey.count; i++) if (grey.size[i] === BASE_LEVEL_SIZE) idx.push(i);
  return pick(grey, idx);
}

/** The early exit of CONFIG.colourGate: grey evidence this weak is the evidence; colour layers are not tried. */
const gatedOut = (grey: PairEvidence): boolean => CONFIG.greyFirst && grey.inliers < CONFIG.colourGate;

/** Correspondences below which the grey verification cannot change what happens next (the bar, or the gate). */
const greyNeeds = (): number => (CONFIG.greyFirst && CONFIG.colourGate > 0 ? Math.min(CONFIG.colourGate, CONFIG.minInliers) : CONFIG.minInliers);

/**
 * The evidence of one comparison; with fewer correspondences than `minCount` the verification is skipped (the count
 * of inliers cannot reach it; they are then reported as 0).
 */
function evidence(query: Features, ref: Features, minCount: number): PairEvidence {
  const c = matchLayers(query, ref, CONFIG.ratio, 256, CONFIG.sameSpot);
  if (c.count < minCount) return { inliers: 0, spread: 0, score: 0 };
  const v = verify(query, ref, c, verifyOptions());
  return { inliers: v.inliers, spread: v.spread, score: scoreOf(v.inliers, v.spread) };
}

const better = (a: PairEvidence, b: PairEvidence): PairEvidence => (b.score > a.score || (b.score === a.score && b.inliers > a.inliers) ? b : a);

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

export function decode(refs: Uint8Array[][]): Features[][] {
  if (!Array.isArray(refs)) throw new MatcherError('invalid_reference', 'references must be an array of arrays');
  return refs.map((gift) => {
    if (!Array.isArray(gift)) throw new MatcherError('invalid_reference', 'each candidate must be an array of references');
    return gift.map((r) => deserialise(r));
  });
}

interface Candidate {
  gift: number;
  f: Features;
  cheap: number;
}

/** A query's best candidate so far: its gift (-1 when none) and the evidence. */
type Found = { gift: number; e: PairEvidence };
/** The better of two candidates; `b` only when it names a gift. */
const betterOf = (a: Found, b: Found): Found => (b.gift >= 0 && better(a.e, b.e) === b.e ? b : a);

/** The best candidate for one query: a shortlist first when there are many, then the full comparison. */
function best(q: Features, all: Candidate[], minCount: number): Found {
  let candidates = all;
  if (all.length > CONFIG.shortlist) {
    // first pass: a third of the query's features against a third of each reference's, verified the same way
    const qs = subsample(q, CONFIG.shortlistQueryFeatures);
    for (const c of all) {
      const rs = subsample(c.f, CONFIG.shortlistRefFeatures);
      const corr = matchLayers(qs, rs, CONFIG.ratio, 256, CONFIG.sameSpot);
      c.cheap = verify(qs, rs, corr, verifyOptions()).inliers * 1000 + corr.count;
    }
    candidates = [...all].sort((a, b) => b.cheap - a.cheap).slice(0, CONFIG.shortlist);
  }
  let gift = -1;
  let top: PairEvidence = { inliers: 0, spread: 0, score: 0 };
  for (const c of candidates) {
    const e = evidence(q, c.f, minCount);
    if (e.score > top.score || (e.score === top.score && e.inliers > top.inliers)) {
      top = e;
      gift = c.gift;
    }
  }
  return { gift, e: top };
}

export async function match(query: Buffer | Uint8Array, references: Uint8Array[][]): Promise<MatchDecision> {
  const t0 = performance.now();
  const refs = decode(references);
  const q = await stageQuery(query);
  const list = (full: boolean): Candidate[] => refs.flatMap((gift, i) => gift.map((f) => ({ gift: i, f: full ? f : layer(f, 0), cheap: 0 })));
  let found: Found = { gift: -1, e: { inliers: 0, spread: 0, score: 0 } };
  // the first pass: the base level's grey keypoints decide a clear genuine scan alone
  if (q.first) found = best(q.first, list(false), CONFIG.minInliers);
  if (CONFIG.greyFirst && !accepts(found.e.inliers, found.e.spread)) found = betterOf(found, best(q.grey(), list(false), greyNeeds()));
  if (!accepts(found.e.inliers, found.e.spread) && !gatedOut(found.e)) {
    // the grey layer leaves the decision open: add the colour layers
    found = betterOf(found, best(q.all(), list(true), CONFIG.minInliers));
  }
  const matched = accepts(found.e.inliers, found.e.spread);
  return { matched, bestIndex: found.gift, score: found.e.score, inliers: found.e.inliers, ms: Math.round(performance.now() - t0) };
}

/**
 * Whether two enrolled references show the same thing (two identical boxes): each is scanned against the other with
 * the scan's own evidence and bar, both ways, and either way counts. For telling a sender that a recipient's scan
 * could not tell two of their gifts apart.
 */
export function referencesMatch(a: Uint8Array, b: Uint8Array): { matched: boolean; inliers: number } {
  const fa = deserialise(a), fb = deserialise(b);
  const e = better(compare(fa, fb), compare(fb, fa));
  return { matched: accepts(e.inliers, e.spread), inliers: e.inliers };
}
