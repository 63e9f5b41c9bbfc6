/**
 * The looks after the first (decisions 047, 052, 053): the second look through the first look's model, the zoomed
 * look at the middle of the frame, the tilted look against the reference's squeezed views, and the warps they use.
 */
import { CONFIG } from './config.ts';
import { loadedCv } from './cv.ts';
import { type GreyImage } from './decode.ts';
import { better, evidence, type PairEvidence } from './evidence.ts';
import { extractFeatures } from './extract.ts';
import { allocFeatures, DESC_BYTES, type Features } from './features.ts';
import { extractOptions } from './staged.ts';

/** Whether evidence is worth a second look: a model with at least CONFIG.secondLook inliers, under `below`. */
export const wantsSecondLook = (e: PairEvidence, below: number): boolean =>
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
export const zoomNeeds = (): number => (CONFIG.secondLook > 0 ? CONFIG.secondLook : CONFIG.zoomLookBar);
/** ... and the tilted look's */
export const tiltNeeds = (): number => (CONFIG.secondLook > 0 ? CONFIG.secondLook : CONFIG.tiltLookBar);

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
