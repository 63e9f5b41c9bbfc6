/**
 * The recognition engine, in-thread: match a query photo against candidate gifts (every look, ranked candidates, the
 * whole-gift check before any evidence decides). See README.md for the recipe, the measurements behind every constant
 * and the decision threshold.
 */
import { checkWholeGift, type PhotoPixels, type WholeGiftCheck } from './appearance.ts';
import { CONFIG } from './config.ts';
import { MatcherError } from './errors.ts';
import { accepts, better, coverageOfEvidence, evidence, gatedOut, greyNeeds, type PairEvidence, verifyOptions } from './evidence.ts';
import { deserialise, type Features, layer, subsample } from './features.ts';
import { matchLayers } from './hamming.ts';
import { coverageOf, secondLookAt, tiltLookAt, tiltNeeds, wantsSecondLook, zoomedFeatures, zoomLookAt, zoomNeeds } from './looks.ts';
import { baseLevel, scanLayers, stageQuery, tiltedLayer } from './staged.ts';
import { verify } from './verify.ts';

export interface MatchDecision {
  matched: boolean;
  /** index into references[] of the best candidate, -1 if none */
  bestIndex: number;
  /** 0..1; >= 0.5 exactly when matched */
  score: number;
  inliers: number;
  ms: number;
  /**
   * Share of the photo's area the best candidate covers, where the evidence found it (its reference's corners
   * through the model, 0..1); absent when no model places it. The live scanner says "Move closer" on a miss when
   * it is under MOVE_CLOSER_BELOW.
   */
  coverage?: number;
  /**
   * Whether the evidence reported passed the whole-gift check and its coverage (decision 056), whatever its inliers:
   * always true when matched. Live frames under the bar are pooled (the server's frame pool) only when vetted.
   */
  vetted: boolean;
}

/** A model of fewer inliers than this places nothing reliably: no coverage is reported from it. */
const PLACED_MIN = 6;

/**
 * compare() computes the second look for evidence under this many inliers (and at least CONFIG.secondLook), so the
 * evidence it reports does not depend on the bar while the bar stays under it (cross-validation moves the bar).
 * match() only looks again under the bar, where it can change the decision.
 */
const SECOND_LOOK_BELOW = 40;

/**
 * One query against one reference, the engine's evidence: the better of the grey layers alone and all layers pooled,
 * except that grey evidence under CONFIG.colourGate is the evidence (the early exit). With CONFIG.firstPass the grey
 * evidence is the better of the base level's grey keypoints and all grey keypoints. match() computes the later
 * stages only when the earlier ones stay under the bar. The evidence does not depend on the bar (calibration tunes
 * the bar on it). `exact` = false skips verifications whose correspondences are too few to matter (inliers are then
 * reported as 0). The zoomed look is reported apart (`zoomLook`, never folded into `inliers`); its own second look is
 * skipped once it reaches CONFIG.zoomLookBar, so `zoomLook` depends on that bar only above it, where it decides anyway.
 */
export function compare(query: Features, ref: Features, exact = true): PairEvidence {
  const first = firstLook(query, ref, exact);
  if (!query.image) return first;
  let e: PairEvidence = first;
  if (wantsSecondLook(first, SECOND_LOOK_BELOW)) {
    const second = secondLookAt(query.image, layer(ref, 0), first.map!);
    // the model kept is the first look's: it places the gift in the query's own frame
    e = { ...better(first, second), map: first.map, firstLook: first.inliers, secondLook: second.inliers };
  }
  // the zoomed look is reported apart (match() lets it decide only from CONFIG.zoomLookBar), never folded in
  if (CONFIG.zoomLook > 0 && e.inliers < SECOND_LOOK_BELOW) {
    e = { ...e, firstLook: first.inliers, zoomLook: zoomLookAt(query.image, zoomedFeatures(query.image), layer(ref, 0)).inliers };
  }
  // so is the tilted look (match() lets it decide only from CONFIG.tiltLookBar)
  const tilted = tiltedLayer(ref);
  if (CONFIG.tiltLook > 0 && tilted && e.inliers < SECOND_LOOK_BELOW) {
    e = { ...e, firstLook: first.inliers, tiltLook: tiltLookAt(query.image, baseLevel(layer(query, 0)), tilted, layer(ref, 0)).inliers };
  }
  return e;
}

/** The evidence of one comparison before decision 047: grey (first pass, all levels), then colour past the gate. */
export function firstLook(query: Features, reference: Features, exact: boolean): PairEvidence {
  const ref = scanLayers(reference);
  const qGrey = layer(query, 0), rGrey = layer(ref, 0);
  let g = evidence(qGrey, rGrey, exact ? 0 : greyNeeds());
  if (CONFIG.greyFirst && CONFIG.firstPass) g = better(evidence(baseLevel(qGrey), rGrey, exact ? 0 : CONFIG.minInliers), g);
  if (query.layers.length <= 2 || ref.layers.length <= 2 || gatedOut(g)) return g;
  return better(g, evidence(query, ref, exact ? 0 : CONFIG.minInliers));
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
  /** the whole reference (its appearance and feature cells), when `f` is a view of it */
  ref?: Features;
}

/** A query's candidate: its gift (-1 when none), the evidence, and the reference it was found with. */
type Found = { gift: number; e: PairEvidence; f?: Features; ref?: Features };
const NOTHING: Found = { gift: -1, e: { inliers: 0, spread: 0, score: 0 } };
/** The better of two candidates; `b` only when it names a gift. */
const betterOf = (a: Found, b: Found): Found => (b.gift >= 0 && better(a.e, b.e) === b.e ? b : a);

/** The candidates for one query, best first: a shortlist first when there are many, then the full comparison. */
function ranked(q: Features, all: Candidate[], minCount: number): Found[] {
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
  const found = candidates.map((c): Found => ({ gift: c.gift, e: evidence(q, c.f, minCount), f: c.f, ...(c.ref ? { ref: c.ref } : {}) }));
  // stable: among equals the earlier candidate stays first
  return found.sort((a, b) => (b.e.score !== a.e.score ? b.e.score - a.e.score : b.e.inliers - a.e.inliers));
}

/** The best candidate for one query (see ranked). */
function best(q: Features, all: Candidate[], minCount: number): Found {
  return ranked(q, all, minCount)[0] ?? NOTHING;
}

/** What the whole-gift check said of one candidate's evidence (tools read it through `onLook`). */
export interface Vetting {
  look: 'first' | 'second' | 'zoomed' | 'tilted' | 'pooled';
  gift: number;
  inliers: number;
  coverage: number;
  check?: WholeGiftCheck;
  passed: boolean;
}

/** Tools only: called with each vetting match() makes (README "The whole-gift check"). */
export const trace: { onLook?: (v: Vetting) => void } = {};

/**
 * Whether a candidate's evidence may decide (decision 056): its model covers enough of the reference, and where the
 * reference carries its appearance, the photo agrees with it over the area the model places it on. The bar is the
 * look's own and is applied apart.
 */
function vetted(c: Found, photo: PhotoPixels, look: Vetting['look'], refusals?: { placed: number }): boolean {
  if (!CONFIG.wholeGift) return true;
  const ref = c.ref ?? c.f;
  if (!ref || !c.e.map) return false;
  const coverage = coverageOfEvidence(c.e, ref);
  let passed = coverage >= CONFIG.minCoverage;
  let check: WholeGiftCheck | undefined;
  if (passed && ref.appearance) {
    check = checkWholeGift(ref.appearance, ref.width, ref.height, c.e.map, photo);
    passed = check.passed;
    // refused on what the photo shows where the gift was placed (not for being too small or outside the photo)
    if (!passed && refusals && check.reason !== 'small' && check.reason !== 'outside') refusals.placed++;
  }
  trace.onLook?.({ look, gift: c.gift, inliers: c.e.inliers, coverage, ...(check ? { check } : {}), passed });
  return passed;
}

export async function match(query: Buffer | Uint8Array, references: Uint8Array[][]): Promise<MatchDecision> {
  const t0 = performance.now();
  const refs = decode(references);
  const q = await stageQuery(query);
  const list = (full: boolean): Candidate[] => refs.flatMap((gift, i) => gift.map((f) => ({ gift: i, f: full ? scanLayers(f) : layer(f, 0), cheap: 0, ref: f })));
  /** the best evidence so far, decided or not (the looks below start from it) */
  let found: Found = NOTHING;
  /** the evidence that decided: at its look's bar, and vetted by the whole-gift check */
  let decided: Found | undefined;
  /** evidence at a bar that the whole-gift check refused on what the photo shows where the model placed the gift */
  const refusals = { placed: 0 };
  const consider = (cands: Found[], bar: number, look: Vetting['look']): void => {
    for (const c of cands) {
      if (c.gift < 0) continue;
      found = betterOf(found, c);
      if (!decided && c.e.inliers >= Math.max(bar, CONFIG.minInliers) && accepts(c.e.inliers, c.e.spread) && vetted(c, q.photo, look, refusals)) decided = c;
    }
  };
  // the first pass: the base level's grey keypoints decide a clear genuine scan alone
  if (q.first) consider(ranked(q.first, list(false), CONFIG.minInliers), CONFIG.minInliers, 'first');
  if (!decided && CONFIG.greyFirst) consider(ranked(q.grey(), list(false), greyNeeds()), CONFIG.minInliers, 'first');
  if (!decided && !gatedOut(found.e)) {
    // the grey layer leaves the decision open: add the colour layers
    consider(ranked(q.all(), list(true), CONFIG.minInliers), CONFIG.minInliers, 'first');
  }
  let placed = found.e.map && found.f && found.e.inliers >= PLACED_MIN ? coverageOf(found.e.map, found.f.width, found.f.height, q.image.width, q.image.height) : undefined;
  if (!decided && found.f && wantsSecondLook(found.e, Infinity)) {
    // the best candidate's evidence has a model but did not decide: look again where it puts the gift
    const second = secondLookAt(q.image, layer(found.f, 0), found.e.map!);
    consider([{ ...found, e: second }], CONFIG.secondLookBar, 'second');
  }
  // A gift placed and refused by the whole-gift check is not small or tilted out of sight: the zoomed and tilted looks
  // would find the same placement again (a sibling's shared print), at the cost of two more extractions.
  const placedAndRefused = refusals.placed > 0;
  if (!decided && CONFIG.zoomLook > 0 && !placedAndRefused) {
    // still undecided: the gift may be too small for the references' scales; enlarge the picture and look again
    const zoomed = zoomedFeatures(q.image);
    const z = best(zoomed.f, list(false), zoomNeeds());
    if (z.gift >= 0 && z.f) {
      const e = zoomLookAt(q.image, zoomed, z.f, z.e);
      if (e.inliers >= Math.max(CONFIG.zoomLookBar, CONFIG.minInliers)) {
        consider([{ ...z, e }], CONFIG.zoomLookBar, 'zoomed');
        // where the gift is is now the zoomed look's to say (its map is in the query's pixels)
        if (found.e === e) placed = e.map ? coverageOf(e.map, z.f.width, z.f.height, q.image.width, q.image.height) : undefined;
      }
    }
  }
  if (!decided && CONFIG.tiltLook > 0 && !placedAndRefused) {
    // still undecided: the gift may be tilted too steeply for ORB; compare with the references' tilted views
    const greyOf = new Map<Features, Features>();
    const wholeOf = new Map<Features, Features>();
    const tilted = refs.flatMap((gift, i) =>
      gift.flatMap((f) => {
        const t = tiltedLayer(f);
        if (!t) return [];
        greyOf.set(t, layer(f, 0));
        wholeOf.set(t, f);
        return [{ gift: i, f: t, cheap: 0 }];
      }),
    );
    const qBase = q.first ?? baseLevel(q.grey());
    const t = tilted.length ? best(qBase, tilted, tiltNeeds()) : undefined;
    if (t && t.gift >= 0 && t.f) {
      const refGrey = greyOf.get(t.f)!;
      const e = tiltLookAt(q.image, qBase, t.f, refGrey, t.e);
      if (e.inliers >= Math.max(CONFIG.tiltLookBar, CONFIG.minInliers)) {
        consider([{ gift: t.gift, e, f: refGrey, ref: wholeOf.get(t.f)! }], CONFIG.tiltLookBar, 'tilted');
        // the tilted views' keypoints are in the reference's pixels: its map places the reference in the query
        if (found.e === e) placed = e.map ? coverageOf(e.map, refGrey.width, refGrey.height, q.image.width, q.image.height) : undefined;
      }
    }
  }
  const shown = decided ?? found;
  // frames pooled over a live scan decide together only when each passed the whole-gift check (its bar aside)
  const pooled = decided ? true : found.gift >= 0 && found.e.inliers >= POOL_CHECK_FROM && vetted(found, q.photo, 'pooled');
  return {
    matched: decided !== undefined,
    bestIndex: shown.gift,
    score: decided ? shown.e.score : Math.min(0.499, shown.e.score),
    inliers: shown.e.inliers,
    vetted: pooled,
    ms: Math.round(performance.now() - t0),
    ...(placed !== undefined ? { coverage: Math.round(placed * 1000) / 1000 } : {}),
  };
}

/** Undecided evidence from this many inliers is vetted for the server's pooled live frames (its pool takes 14+). */
const POOL_CHECK_FROM = 10;

/**
 * Whether two enrolled references show the same thing (two identical boxes): each is scanned against the other with
 * the scan's own evidence and bar, both ways, and either way counts. For telling a sender that a recipient's scan
 * could not tell two of their gifts apart.
 */
export function referencesMatch(a: Uint8Array, b: Uint8Array): { matched: boolean; inliers: number } {
  const fa = scanLayers(deserialise(a)), fb = scanLayers(deserialise(b));
  const e = better(compare(fa, fb), compare(fb, fa));
  return { matched: accepts(e.inliers, e.spread), inliers: e.inliers };
}
