/**
 * The recognition engine, in-thread: enrol a reference photo, match a query photo against candidate gifts.
 * See README.md for the recipe, the measurements behind every constant and the decision threshold.
 */
import { appearanceOf, checkWholeGift, type PhotoPixels, type WholeGiftCheck } from './appearance.ts';
import { loadCv, loadedCv } from './cv.ts';
import { decodeStaged, type GreyImage } from './decode.ts';
import { MatcherError } from './errors.ts';
import { extractFeatures, extractSplit, type ExtractOptions } from './extract.ts';
import { allocFeatures, DESC_BYTES, deserialise, layer, pick, serialise, stackLayers, subsample, upTo, withLayer, type Features } from './features.ts';
import { matchLayers } from './hamming.ts';
import { rateReference, type RatedQuality } from './quality.ts';
import { GRID } from './geometry.ts';
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

/**
 * A scan that misses while its best candidate covers less than this share of the photo asks the person to move
 * closer (decision 047): the misses were gifts at about a tenth of the frame; the hard cases recognise gifts
 * at 16% of it, so the hint comes between the two.
 */
export const MOVE_CLOSER_BELOW = 0.15;
/** A model of fewer inliers than this places nothing reliably: no coverage is reported from it. */
const PLACED_MIN = 6;

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
  /**
   * The second look (decision 047): when a scan stays under the bar but its best candidate's evidence has
   * at least this many inliers, the query picture is warped by that evidence's model into the reference's frame (the
   * gift upright, its tilt undone, enlarged up to 2x where it was small) and looked at again: grey ORB on the warped
   * picture, compared with that reference's grey layer. The evidence is the better of the two looks, judged by the
   * same bar. 0 = off (the recipe before decision 047). Chosen by leave-gifts-out cross-validation on the data set and the
   * hard cases (README "Hard cases real phones take").
   */
  secondLook: 6,
  /**
   * Evidence from the second look decides only at this many inliers or more: the highest impostor measured with a
   * second look (12, a glare scene; README "Hard cases") plus the 4-inlier margin every bar keeps (decision 026).
   * Without it the second look would cut the headroom over the worst impostor from 7 to 3.
   */
  secondLookBar: 16,
  /** the warped picture: up to this many times the gift's size in the query, and never larger than the reference */
  secondLookZoom: 2,
  /** ... with this share of the reference's width / height added on each side (the model is only approximate) */
  secondLookMargin: 0.15,
  /**
   * The zoomed look (decision 052): when a scan stays under the bar after both looks above, the middle of the query
   * picture (CONFIG.zoomCentre of its width and height) is enlarged this many times and its grey ORB, on one pyramid
   * level, compared with the candidates' grey layers; where that finds a model of CONFIG.secondLook+ inliers, a second
   * look follows from it. A gift under ~180 px in the query is smaller than the smallest of the reference's 8 levels
   * (640 / 1.2^7) and has few corners FAST can see at that size: enlarged, it has them, on a scale the reference
   * shares. 0 = off (the recipe before decision 052). Its settings were compared on the hard cases for what they
   * recognise and cost (`npm run -s zoomvariants`), then cross-validated with the data set (README "The zoomed look").
   */
  zoomLook: 2,
  /** ... of this share of the picture's width and height, centred (where the scanner's guide asks for the gift) */
  zoomCentre: 0.7,
  /** ... ORB levels on the enlarged picture (the first look already covers the picture's own scale and below) */
  zoomLevels: 1,
  /** ... and this many keypoints */
  zoomFeatures: 1000,
  /**
   * Evidence of the zoomed look (or of the second look that follows it) decides only at this many inliers or more,
   * the second look's bar: the highest impostor the zoomed look reached is 8 of 4,956 impostor comparisons (README
   * "The zoomed look"), 8 under it; with the whole picture enlarged it had reached 12, 4 under it.
   */
  zoomLookBar: 16,
  /**
   * The tilted look (decision 053): a gift photographed at a steep angle (60-70 degrees) is squeezed in the query to
   * a half or a third along one direction, which ORB's descriptors do not undo. At enrolment the reference is also
   * seen squeezed this many times along each of CONFIG.tiltDirections directions (tiltedViews: a 60 degree tilt for 2),
   * its grey ORB on CONFIG.tiltLevels levels kept as one more layer, every keypoint in the reference's own pixels. When a
   * scan stays under the bar after every look above, the query's base-level grey keypoints (those the first pass
   * compares) are compared with that layer, and where that finds a model of CONFIG.secondLook+ inliers, a second look
   * follows from it (the query warped upright, its tilt undone). 0 = off, and references enrolled without the layer
   * (before decision 053) are not given the look. Compared by `npm run -s tiltvariants`, cross-validated with the data
   * set and the hard cases (README "The tilted look").
   */
  tiltLook: 2,
  /** ... along this many directions, evenly spread over 180 degrees (0, 60 and 120) */
  tiltDirections: 3,
  /** ... with this many grey keypoints for each direction */
  tiltFeatures: 400,
  /** ... on this many pyramid levels (x1.2), as the reference's own grey layer: the squeezed gift is small in the query */
  tiltLevels: 8,
  /** Evidence of the tilted look (or of the second look that follows it) decides only at this many inliers or more. */
  tiltLookBar: 16,
  /**
   * The whole-gift check (decision 056): no look decides on inliers alone. Evidence at its look's bar decides only when
   * the reference's appearance, placed in the photo by the evidence's model, agrees with the photo cell by cell in
   * structure and colour (appearance.ts, WHOLE_GIFT), and when its inliers cover at least CONFIG.minCoverage of the
   * reference's cells that hold features. References enrolled since decision 056 carry their appearance; older ones
   * are judged on coverage alone until they are enrolled again. false = off (the recipe before decision 056).
   */
  wholeGift: true,
  /**
   * Share of the reference's feature-holding cells (a 6x6 grid) that must hold an inlier: evidence confined to a logo
   * or one band never decides, however many inliers it has (decision 056).
   */
  minCoverage: 0.2,
};

/**
 * What enrol() puts in a reference, by the decision that last changed it: 53 = grey, two colour layers and the tilted
 * views (decision 053). A store that keeps references enrols again those made by an older recipe (the server's
 * housekeeping); references of any recipe stay readable and match as they did.
 */
export const REFERENCE_RECIPE = 56;

/** The layer a reference enrolled since decision 053 keeps its tilted views in (after grey and the two colour layers). */
const TILT_LAYER = 3;

/**
 * compare() computes the second look for evidence under this many inliers (and at least CONFIG.secondLook), so the
 * evidence it reports does not depend on the bar while the bar stays under it (cross-validation moves the bar).
 * match() only looks again under the bar, where it can change the decision.
 */
const SECOND_LOOK_BELOW = 40;

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
  /** the decoded grey picture (the second look warps it) */
  image: GreyImage;
  /** the grey picture and its RGB pixels, for the whole-gift check */
  photo: PhotoPixels;
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
  let chromaOf: [GreyImage, GreyImage] | undefined;
  const chroma = (): [GreyImage, GreyImage] => (chromaOf ??= d.chroma(CONFIG.chromaStep));
  const greyAll = (): Features => (grey ??= split!.all());
  return {
    ...(split ? { first: split.first } : {}),
    image: d.grey,
    photo: { grey: d.grey, rgb: d.rgb },
    grey: greyAll,
    all: () => {
      if (all) return all;
      const step = CONFIG.chromaStep;
      const channels = chroma();
      const parts = [greyAll(), ...channels.map((c) => extractFeatures(cv, c, extractOptions(CONFIG.chromaFeatures, chromaLevels)))];
      all = stackLayers(parts, [1, ...channels.map(() => step)], [0, ...channels.map(() => (step - 1) / 2)]);
      all.image = d.grey;
      return all;
    },
  };
}

export async function extractReference(image: Buffer | Uint8Array): Promise<Features> {
  const staged = await extractStaged(image, CONFIG.refSide, CONFIG.refFeatures, CONFIG.refLevels, CONFIG.refChromaLevels, 1.2);
  const all = staged.all();
  const appearance = CONFIG.wholeGift ? { appearance: appearanceOf(staged.image, staged.photo.rgb) } : {};
  if (CONFIG.tiltLook <= 0) return { ...all, ...appearance };
  const directions = Array.from({ length: CONFIG.tiltDirections }, (_, i) => (i * 180) / CONFIG.tiltDirections);
  const views = tiltedViews(staged.image, directions, CONFIG.tiltLook, CONFIG.tiltFeatures, CONFIG.tiltLevels);
  const tilted = stackLayers(views, []);
  return { ...withLayer(all, { ...tilted, layers: [0, tilted.count] }), ...appearance };
}

/** A reference's tilted views (one layer), when it was enrolled with them. */
function tiltedLayer(ref: Features): Features | undefined {
  return ref.layers.length > TILT_LAYER + 1 && ref.layers[TILT_LAYER + 1]! > ref.layers[TILT_LAYER]! ? layer(ref, TILT_LAYER) : undefined;
}

/** The layers a scan compares: grey and colour, without the tilted views (those the tilted look compares apart). */
function scanLayers(f: Features): Features {
  return upTo(f, TILT_LAYER);
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

function verifyOptions(): VerifyOptions {
  return { ...DEFAULT_VERIFY, samePointPx: CONFIG.samePoint };
}

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
function firstLook(query: Features, reference: Features, exact: boolean): PairEvidence {
  const ref = scanLayers(reference);
  const qGrey = layer(query, 0), rGrey = layer(ref, 0);
  let g = evidence(qGrey, rGrey, exact ? 0 : greyNeeds());
  if (CONFIG.greyFirst && CONFIG.firstPass) g = better(evidence(baseLevel(qGrey), rGrey, exact ? 0 : CONFIG.minInliers), g);
  if (query.layers.length <= 2 || ref.layers.length <= 2 || gatedOut(g)) return g;
  return better(g, evidence(query, ref, exact ? 0 : CONFIG.minInliers));
}

/** Whether evidence is worth a second look: a model with at least CONFIG.secondLook inliers, under `below`. */
const wantsSecondLook = (e: PairEvidence, below: number): boolean =>
  CONFIG.secondLook > 0 && e.map !== undefined && e.inliers >= CONFIG.secondLook && e.inliers < below;

/**
 * The second look: the query picture warped by `map` (reference -> query) into the reference's frame, with a margin,
 * at up to CONFIG.secondLookZoom times the gift's size in the query (never larger than the reference's frame); grey
 * ORB on it, compared with the reference's grey layer. On the warped picture the gift is upright and its tilt undone,
 * and a gift that was small in the frame gets all of the query's keypoints instead of the clutter around it.
 */
export function secondLookAt(image: GreyImage, refGrey: Features, map: number[]): PairEvidence {
  const none: PairEvidence = { inliers: 0, spread: 0, score: 0 };
  const w = refGrey.width, h = refGrey.height;
  // the gift's area in the query against the reference's own (clamped at 1: from a quarter on, f is 1 anyway)
  const area = coverageOf(map, w, h, w, h);
  const f = Math.min(1, CONFIG.secondLookZoom * Math.sqrt(area));
  const m = CONFIG.secondLookMargin;
  const outW = Math.round(f * w * (1 + 2 * m)), outH = Math.round(f * h * (1 + 2 * m));
  if (Math.min(outW, outH) < 64) return none;
  // output pixel (u, v) -> reference (u / f - m w, v / f - m h) -> query by `map`
  const T = [1 / f, 0, -m * w, 0, 1 / f, -m * h, 0, 0, 1];
  const Q = mul3(map, T);
  const warped = warpGrey(image, Q, outW, outH);
  const cv = loadedCv();
  const q = extractFeatures(cv, warped, extractOptions(CONFIG.queryFeatures, CONFIG.queryLevels, CONFIG.queryScale));
  const e = evidence(q, refGrey, 0);
  // its model back in the photo's own pixels (reference -> warped picture -> photo): a refinement of `map`
  return e.map ? { ...e, map: mul3(Q, e.map) } : e;
}

/** A query picture's zoomed look: its middle enlarged, the grey features of that, and how its pixels map back. */
export interface Zoomed {
  f: Features;
  /** zoomed picture pixels -> query pixels (3x3 row-major) */
  toQuery: number[];
}
const zoomCache = new WeakMap<GreyImage, { key: string; zoomed: Zoomed }>();

/** The zoomed look's features of a query picture, computed once per picture (and settings). */
export function zoomedFeatures(image: GreyImage): Zoomed {
  const z = CONFIG.zoomLook, share = CONFIG.zoomCentre;
  // every setting the zoomed features depend on (tools change CONFIG between calls on the same picture)
  const key = JSON.stringify([z, share, extractOptions(CONFIG.zoomFeatures, CONFIG.zoomLevels, CONFIG.queryScale)]);
  const cached = zoomCache.get(image);
  if (cached?.key === key) return cached.zoomed;
  const w = Math.round(image.width * share), h = Math.round(image.height * share);
  const x0 = Math.round((image.width - w) / 2), y0 = Math.round((image.height - h) / 2);
  const W = Math.round(w * z), H = Math.round(h * z);
  // cv.resize samples output pixel u at (u + 0.5) * w / W - 0.5 of its input (pixel centres aligned)
  const sx = w / W, sy = h / H;
  const toQuery = [sx, 0, x0 + 0.5 * sx - 0.5, 0, sy, y0 + 0.5 * sy - 0.5, 0, 0, 1];
  const enlarged = resizeGrey(image, x0, y0, w, h, W, H);
  const zoomed = { f: extractFeatures(loadedCv(), enlarged, extractOptions(CONFIG.zoomFeatures, CONFIG.zoomLevels, CONFIG.queryScale)), toQuery };
  zoomCache.set(image, { key, zoomed });
  return zoomed;
}

/**
 * The zoomed look at one reference: the enlarged middle's grey features against the reference's grey layer, and where
 * that leaves a model of CONFIG.secondLook+ inliers under the bar, a second look from it (its model brought back to the
 * query's own pixels). The better of the two; the map is the query's (reference -> query pixels).
 */
export function zoomLookAt(image: GreyImage, zoomed: Zoomed, refGrey: Features, found?: PairEvidence): PairEvidence {
  const z = found ?? evidence(zoomed.f, refGrey, zoomNeeds());
  const map = z.map ? mul3(zoomed.toQuery, z.map) : undefined;
  const own: PairEvidence = { ...z, ...(map ? { map } : {}) };
  if (!map || !wantsSecondLook(z, CONFIG.zoomLookBar)) return own;
  // the model kept is the zoomed look's, in the query's pixels (the second look's is in its warped picture's)
  return { ...better(own, secondLookAt(image, refGrey, map)), map };
}

/** Correspondences below which the zoomed look's verification cannot matter: its second look needs a model this big. */
const zoomNeeds = (): number => (CONFIG.secondLook > 0 ? CONFIG.secondLook : CONFIG.zoomLookBar);
/** ... and the tilted look's */
const tiltNeeds = (): number => (CONFIG.secondLook > 0 ? CONFIG.secondLook : CONFIG.tiltLookBar);

/** Share of a qW x qH picture covered by a refW x refH reference through `map` (0..1; 0 when it does not project). */
export function coverageOf(map: number[], refW: number, refH: number, qW: number, qH: number): number {
  const corners = [[0, 0], [refW, 0], [refW, refH], [0, refH]].map(([x, y]) => project(map, x!, y!));
  if (corners.some((p) => !p)) return 0;
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const a = corners[i]!, b = corners[(i + 1) % 4]!;
    area += a[0] * b[1] - b[0] * a[1];
  }
  return Math.min(1, Math.abs(area / 2) / (qW * qH));
}

function project(H: number[], x: number, y: number): [number, number] | null {
  const z = H[6]! * x + H[7]! * y + H[8]!;
  if (!(z > 1e-9)) return null;
  return [(H[0]! * x + H[1]! * y + H[2]!) / z, (H[3]! * x + H[4]! * y + H[5]!) / z];
}

function mul3(a: number[], b: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[i * 3 + j]! += a[i * 3 + k]! * b[k * 3 + j]!;
  return o;
}

/** The w x h part of `image` at (x0, y0), resized to W x H (bilinear): an eighth of warpGrey's CPU (0.7 against 5.8 ms). */
function resizeGrey(image: GreyImage, x0: number, y0: number, w: number, h: number, W: number, H: number): GreyImage {
  const cv = loadedCv();
  const src = new cv.Mat(image.height, image.width, cv.CV_8UC1);
  const dst = new cv.Mat();
  let roi: InstanceType<typeof cv.Mat> | undefined;
  try {
    src.data.set(image.data);
    roi = src.roi(new cv.Rect(x0, y0, w, h));
    cv.resize(roi, dst, new cv.Size(W, H), 0, 0, cv.INTER_LINEAR);
    return { width: W, height: H, data: dst.data.slice(0, W * H) };
  } finally {
    roi?.delete();
    dst.delete();
    src.delete();
  }
}

/**
 * A reference picture seen at a steep tilt: for each direction (degrees), the picture compressed `t` times along it
 * (a tilt of acos(1/t): 60 degrees for t = 2), its grey ORB, and every keypoint mapped back into the picture's own
 * pixels, so a correspondence found on a view is verified like any other. One layer per direction.
 */
export function tiltedViews(image: GreyImage, directions: number[], t: number, features: number, levels: number): Features[] {
  const cv = loadedCv();
  return directions.map((deg) => {
    const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), k = 1 / t - 1;
    // A = R(a) diag(1/t, 1) R(-a): compresses along the direction a, keeps the perpendicular
    const A = [1 + k * c * c, k * c * s, k * c * s, 1 + k * s * s];
    const corners = [[0, 0], [image.width, 0], [image.width, image.height], [0, image.height]].map(([x, y]) => [A[0]! * x! + A[1]! * y!, A[2]! * x! + A[3]! * y!]);
    const x0 = Math.min(...corners.map((p) => p[0]!)), y0 = Math.min(...corners.map((p) => p[1]!));
    const W = Math.ceil(Math.max(...corners.map((p) => p[0]!)) - x0), H = Math.ceil(Math.max(...corners.map((p) => p[1]!)) - y0);
    const Q = [A[0]!, A[1]!, -x0, A[2]!, A[3]!, -y0, 0, 0, 1];
    const view = warpGrey(image, invert3(Q), W, H);
    const f = extractFeatures(cv, view, extractOptions(features, levels));
    // back into the picture's pixels: p = A^-1 (u + x0, v + y0); orientation and size stay the view's (decision 053)
    const det = A[0]! * A[3]! - A[1]! * A[2]!;
    const out = allocFeatures(image.width, image.height, f.count);
    for (let i = 0; i < f.count; i++) {
      const u = f.x[i]! + x0, v = f.y[i]! + y0;
      out.x[i] = (A[3]! * u - A[1]! * v) / det;
      out.y[i] = (-A[2]! * u + A[0]! * v) / det;
      out.size[i] = f.size[i]!;
      out.angle[i] = f.angle[i]!;
    }
    out.desc.set(f.desc.subarray(0, f.count * DESC_BYTES));
    return out;
  });
}

/**
 * The tilted look at one reference: the query's grey features against the reference's tilted views (one layer, each
 * keypoint in the reference's own pixels), and where that leaves a model of CONFIG.secondLook+ inliers, a second look
 * from it (the query warped upright, its tilt undone). The better of the two; the map is the tilted views' model.
 */
export function tiltLookAt(image: GreyImage, qGrey: Features, tilted: Features, refGrey: Features, found?: PairEvidence): PairEvidence {
  const t = found ?? evidence(qGrey, tilted, tiltNeeds());
  if (!t.map || !wantsSecondLook(t, CONFIG.tiltLookBar)) return t;
  return { ...better(t, secondLookAt(image, refGrey, t.map)), map: t.map };
}

function invert3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A / det, -(b * i - c * h) / det, (b * f - c * e) / det, B / det, (a * i - c * g) / det, -(a * f - c * d) / det, C / det, -(a * h - b * g) / det, (a * e - b * d) / det];
}

/** `image` resampled through Q (output pixel -> source pixel, 3x3), bilinear, grey 0 outside. */
function warpGrey(image: GreyImage, Q: number[], outW: number, outH: number): GreyImage {
  const cv = loadedCv();
  const src = new cv.Mat(image.height, image.width, cv.CV_8UC1);
  const dst = new cv.Mat();
  const M = cv.matFromArray(3, 3, cv.CV_32F, Q);
  try {
    src.data.set(image.data);
    cv.warpPerspective(src, dst, M, new cv.Size(outW, outH), cv.INTER_LINEAR | cv.WARP_INVERSE_MAP, cv.BORDER_CONSTANT, new cv.Scalar(0));
    return { width: outW, height: outH, data: dst.data.slice(0, outW * outH) };
  } finally {
    M.delete();
    dst.delete();
    src.delete();
  }
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
  return { inliers: v.inliers, spread: v.spread, score: scoreOf(v.inliers, v.spread), ...(v.map ? { map: v.map } : {}) };
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
