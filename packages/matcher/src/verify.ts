/**
 * Geometric verification, hand-written (see README "Decisions"):
 * 1-point RANSAC — every tentative correspondence proposes a similarity transform from its two keypoints'
 * position, scale and orientation (Philbin et al., CVPR 2007, "Object retrieval with large vocabularies and fast
 * spatial matching") — so all hypotheses can be tried exhaustively in O(n²) cheap checks, then the best are
 * locally optimised (LO-RANSAC, Chum et al. 2003): least-squares affine, then homography, re-estimating the
 * inlier set with a tightening tolerance. The result counts one-to-one inliers and their spread.
 */
import { type Features } from './features.ts';
import { type Correspondences } from './hamming.ts';
import { GRID, spread } from './geometry.ts';

export interface VerifyOptions {
  /** hypothesis tolerance as a fraction of the query image's larger side */
  hypTol: number;
  /** final (homography/affine) reprojection tolerance as a fraction of the query's larger side */
  finalTol: number;
  /** max |log scale ratio| difference and angle difference (deg) for a correspondence to support a hypothesis */
  scaleTol: number;
  angleTol: number;
  /** how many of the best hypotheses to refine */
  refine: number;
  /** 'homography' for flat things; 'affine' is looser; 'best' keeps whichever model explains more */
  model: 'homography' | 'affine' | 'best';
  /**
   * Inliers are counted one-to-one: a keypoint on either side counts once. With more than one feature layer
   * (grey and colour channels) the same corner can be found in several layers; keypoints in the same cell of this
   * many pixels (base frame) on the same side then count once too. 0 = by keypoint index only.
   */
  samePointPx: number;
}

export const DEFAULT_VERIFY: VerifyOptions = {
  hypTol: 0.05,
  finalTol: 0.012,
  scaleTol: Math.log(2),
  angleTol: 30,
  refine: 3,
  model: 'best',
  samePointPx: 0,
};

export interface Evidence {
  /** one-to-one geometrically consistent correspondences */
  inliers: number;
  spread: number;
  querySpread: number;
  mask: Uint8Array;
  model: 'homography' | 'affine' | 'none';
  /** the model itself, reference -> query pixels, 3x3 row-major (an affine one's last row is 0 0 1); absent with none */
  map?: number[];
}

const NONE = (n: number): Evidence => ({ inliers: 0, spread: 0, querySpread: 0, mask: new Uint8Array(n), model: 'none' });

export function verify(query: Features, ref: Features, c: Correspondences, o: VerifyOptions = DEFAULT_VERIFY): Evidence {
  const n = c.count;
  if (n < 4) return NONE(n);
  const side = Math.max(query.width, query.height);
  const hypTol2 = (o.hypTol * side) ** 2;
  const rx = new Float64Array(n), ry = new Float64Array(n), qx = new Float64Array(n), qy = new Float64Array(n);
  const ls = new Float64Array(n), an = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const qi = c.q[k]!, ri = c.r[k]!;
    rx[k] = ref.x[ri]!;
    ry[k] = ref.y[ri]!;
    qx[k] = query.x[qi]!;
    qy[k] = query.y[qi]!;
    ls[k] = Math.log(query.size[qi]! / ref.size[ri]!);
    let a = query.angle[qi]! - ref.angle[ri]!;
    a = ((a % 360) + 360) % 360;
    an[k] = a;
  }
  // 1. exhaustive 1-point similarity hypotheses
  const support = new Int32Array(n);
  const cosT = o.angleTol;
  for (let h = 0; h < n; h++) {
    const s = Math.exp(ls[h]!);
    const t = (an[h]! * Math.PI) / 180;
    const a = s * Math.cos(t), b = s * Math.sin(t);
    const x0 = rx[h]!, y0 = ry[h]!, u0 = qx[h]!, v0 = qy[h]!;
    let cnt = 0;
    for (let k = 0; k < n; k++) {
      const dx = rx[k]! - x0, dy = ry[k]! - y0;
      const ex = a * dx - b * dy + u0 - qx[k]!;
      const ey = b * dx + a * dy + v0 - qy[k]!;
      if (ex * ex + ey * ey > hypTol2) continue;
      if (Math.abs(ls[k]! - ls[h]!) > o.scaleTol) continue;
      let da = Math.abs(an[k]! - an[h]!);
      if (da > 180) da = 360 - da;
      if (da > cosT) continue;
      cnt++;
    }
    support[h] = cnt;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((p, q) => support[q]! - support[p]!);
  let best = NONE(n);
  const tried: number[] = [];
  for (const h of order) {
    if (tried.length >= o.refine || support[h]! < 3) break;
    // skip hypotheses that are near-duplicates of one already refined (same region & transform)
    tried.push(h);
    const ev = refine(h, rx, ry, qx, qy, ls, an, side, o, query, ref, c);
    if (ev.inliers > best.inliers) best = ev;
  }
  return best;
}

function refine(
  h: number,
  rx: Float64Array, ry: Float64Array, qx: Float64Array, qy: Float64Array, ls: Float64Array, an: Float64Array,
  side: number, o: VerifyOptions, query: Features, ref: Features, c: Correspondences,
): Evidence {
  const n = rx.length;
  // start: the hypothesis' similarity support set
  const s = Math.exp(ls[h]!);
  const t = (an[h]! * Math.PI) / 180;
  let A: number[] = [s * Math.cos(t), -s * Math.sin(t), 0, s * Math.sin(t), s * Math.cos(t), 0];
  A[2] = qx[h]! - (A[0]! * rx[h]! + A[1]! * ry[h]!);
  A[5] = qy[h]! - (A[3]! * rx[h]! + A[4]! * ry[h]!);
  let mask = inliersAffine(A, rx, ry, qx, qy, (o.hypTol * side) ** 2);
  // affine LO: tolerance shrinking from hypTol to finalTol
  const steps = [o.hypTol, (o.hypTol + o.finalTol) / 2, o.finalTol * 1.5];
  for (const tol of steps) {
    const fit = fitAffine(mask, rx, ry, qx, qy);
    if (!fit) return NONE(n);
    A = fit;
    mask = inliersAffine(A, rx, ry, qx, qy, (tol * side) ** 2);
  }
  let affineMask = mask;
  if (!saneAffine(A)) affineMask = new Uint8Array(n);
  let homMask: Uint8Array = new Uint8Array(n);
  let homMap: number[] | undefined;
  if (o.model !== 'affine' && count(mask) >= 8) {
    let m = mask;
    let H: number[] | null = null;
    for (const tol of [o.finalTol * 2, o.finalTol, o.finalTol]) {
      H = fitHomography(m, rx, ry, qx, qy);
      if (!H) break;
      m = inliersHomography(H, rx, ry, qx, qy, (tol * side) ** 2);
    }
    if (H && saneHomography(H, ref.width, ref.height)) {
      homMask = m;
      homMap = H;
    }
  }
  const ua = oneToOne(affineMask, c, query, ref, o.samePointPx);
  const uh = oneToOne(homMask, c, query, ref, o.samePointPx);
  const useHom = o.model === 'homography' || (o.model === 'best' && uh >= ua);
  const use = useHom ? homMask : affineMask;
  const model: Evidence['model'] = useHom ? 'homography' : 'affine';
  const inliers = o.model === 'homography' ? uh : o.model === 'affine' ? ua : Math.max(ua, uh);
  if (inliers === 0) return NONE(n);
  const map = useHom ? homMap : [...A, 0, 0, 1];
  return { inliers, ...spread(query, ref, c, use), mask: use, model, ...(map ? { map } : {}) };
}

function count(m: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < m.length; i++) s += m[i]!;
  return s;
}

/** inliers counted one-to-one: a keypoint on either side is used at most once */
function oneToOne(m: Uint8Array, c: Correspondences, query: Features, ref: Features, px: number): number {
  const sq = new Set<number>(), sr = new Set<number>();
  for (let k = 0; k < m.length; k++) {
    if (!m[k]) continue;
    if (px > 0) {
      const qi = c.q[k]!, ri = c.r[k]!;
      sq.add(Math.round(query.x[qi]! / px) * 65536 + Math.round(query.y[qi]! / px));
      sr.add(Math.round(ref.x[ri]! / px) * 65536 + Math.round(ref.y[ri]! / px));
    } else {
      sq.add(c.q[k]!);
      sr.add(c.r[k]!);
    }
  }
  return Math.min(sq.size, sr.size);
}

function inliersAffine(A: number[], rx: Float64Array, ry: Float64Array, qx: Float64Array, qy: Float64Array, tol2: number): Uint8Array {
  const n = rx.length, m = new Uint8Array(n);
  const [a, b, c, d, e, f] = A as [number, number, number, number, number, number];
  for (let k = 0; k < n; k++) {
    const ex = a * rx[k]! + b * ry[k]! + c - qx[k]!;
    const ey = d * rx[k]! + e * ry[k]! + f - qy[k]!;
    if (ex * ex + ey * ey <= tol2) m[k] = 1;
  }
  return m;
}

function inliersHomography(H: number[], rx: Float64Array, ry: Float64Array, qx: Float64Array, qy: Float64Array, tol2: number): Uint8Array {
  const n = rx.length, m = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const x = rx[k]!, y = ry[k]!;
    const w = H[6]! * x + H[7]! * y + 1;
    if (w <= 1e-6) continue;
    const ex = (H[0]! * x + H[1]! * y + H[2]!) / w - qx[k]!;
    const ey = (H[3]! * x + H[4]! * y + H[5]!) / w - qy[k]!;
    if (ex * ex + ey * ey <= tol2) m[k] = 1;
  }
  return m;
}

/** least-squares affine q = A r over the masked correspondences */
function fitAffine(m: Uint8Array, rx: Float64Array, ry: Float64Array, qx: Float64Array, qy: Float64Array): number[] | null {
  if (count(m) < 3) return null;
  // normal equations for [x y 1] -> u and -> v
  let sxx = 0, sxy = 0, sx = 0, syy = 0, sy = 0, s1 = 0, sxu = 0, syu = 0, su = 0, sxv = 0, syv = 0, sv = 0;
  for (let k = 0; k < m.length; k++) {
    if (!m[k]) continue;
    const x = rx[k]!, y = ry[k]!, u = qx[k]!, v = qy[k]!;
    sxx += x * x; sxy += x * y; sx += x; syy += y * y; sy += y; s1 += 1;
    sxu += x * u; syu += y * u; su += u; sxv += x * v; syv += y * v; sv += v;
  }
  const M = [sxx, sxy, sx, sxy, syy, sy, sx, sy, s1];
  const pu = solve(M.slice(), [sxu, syu, su], 3);
  const pv = solve(M.slice(), [sxv, syv, sv], 3);
  if (!pu || !pv) return null;
  return [pu[0]!, pu[1]!, pu[2]!, pv[0]!, pv[1]!, pv[2]!];
}

/** least-squares homography (h33 = 1, Hartley-normalised DLT) over the masked correspondences */
function fitHomography(m: Uint8Array, rx: Float64Array, ry: Float64Array, qx: Float64Array, qy: Float64Array): number[] | null {
  const idx: number[] = [];
  for (let k = 0; k < m.length; k++) if (m[k]) idx.push(k);
  if (idx.length < 5) return null;
  const norm = (xs: Float64Array, ys: Float64Array) => {
    let mx = 0, my = 0;
    for (const k of idx) {
      mx += xs[k]!;
      my += ys[k]!;
    }
    mx /= idx.length; my /= idx.length;
    let d = 0;
    for (const k of idx) d += Math.hypot(xs[k]! - mx, ys[k]! - my);
    const s = d > 0 ? (Math.SQRT2 * idx.length) / d : 1;
    return { mx, my, s };
  };
  const nr = norm(rx, ry), nq = norm(qx, qy);
  const AtA = new Float64Array(64), Atb = new Float64Array(8);
  const row = new Float64Array(8);
  const add = (b: number) => {
    for (let i = 0; i < 8; i++) {
      const ri = row[i]!;
      if (ri === 0) continue;
      Atb[i] = Atb[i]! + ri * b;
      for (let j = 0; j < 8; j++) AtA[i * 8 + j] = AtA[i * 8 + j]! + ri * row[j]!;
    }
  };
  for (const k of idx) {
    const x = (rx[k]! - nr.mx) * nr.s, y = (ry[k]! - nr.my) * nr.s;
    const u = (qx[k]! - nq.mx) * nq.s, v = (qy[k]! - nq.my) * nq.s;
    row.set([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    add(u);
    row.set([0, 0, 0, x, y, 1, -v * x, -v * y]);
    add(v);
  }
  const h = solve(Array.from(AtA), Array.from(Atb), 8);
  if (!h) return null;
  // denormalise: H = Tq^-1 * Hn * Tr
  const Hn = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1];
  const Tr = [nr.s, 0, -nr.s * nr.mx, 0, nr.s, -nr.s * nr.my, 0, 0, 1];
  const Tqi = [1 / nq.s, 0, nq.mx, 0, 1 / nq.s, nq.my, 0, 0, 1];
  const H = mul3(Tqi, mul3(Hn, Tr));
  const z = H[8]!;
  if (Math.abs(z) < 1e-12) return null;
  return H.map((v) => v / z);
}

function mul3(a: number[], b: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[i * 3 + j]! += a[i * 3 + k]! * b[k * 3 + j]!;
  return o;
}

/** Gaussian elimination with partial pivoting; M is n x n row-major */
function solve(M: number[], b: number[], n: number): number[] | null {
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r * n + c]!) > Math.abs(M[p * n + c]!)) p = r;
    if (Math.abs(M[p * n + c]!) < 1e-12) return null;
    if (p !== c) {
      for (let k = 0; k < n; k++) [M[c * n + k], M[p * n + k]] = [M[p * n + k]!, M[c * n + k]!];
      [b[c], b[p]] = [b[p]!, b[c]!];
    }
    for (let r = c + 1; r < n; r++) {
      const f = M[r * n + c]! / M[c * n + c]!;
      if (f === 0) continue;
      for (let k = c; k < n; k++) M[r * n + k]! -= f * M[c * n + k]!;
      b[r]! -= f * b[c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let k = r + 1; k < n; k++) s -= M[r * n + k]! * x[k]!;
    x[r] = s / M[r * n + r]!;
  }
  return x.every(Number.isFinite) ? x : null;
}

/** no reflection, scale between 1/10 and 10, not too anisotropic */
function saneAffine(A: number[]): boolean {
  const det = A[0]! * A[4]! - A[1]! * A[3]!;
  if (!(det > 0.01 && det < 100)) return false;
  const n1 = Math.hypot(A[0]!, A[3]!), n2 = Math.hypot(A[1]!, A[4]!);
  const r = n1 / n2;
  return r > 0.25 && r < 4;
}

/** the reference's corners must map to a convex, non-degenerate quadrilateral in front of the camera */
function saneHomography(H: number[], w: number, h: number): boolean {
  const pts = [[0, 0], [w, 0], [w, h], [0, h]].map(([x, y]) => {
    const z = H[6]! * x! + H[7]! * y! + 1;
    return z > 0 ? [(H[0]! * x! + H[1]! * y! + H[2]!) / z, (H[3]! * x! + H[4]! * y! + H[5]!) / z] : null;
  });
  if (pts.some((p) => !p)) return false;
  let sign = 0;
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!, b = pts[(i + 1) % 4]!, c = pts[(i + 2) % 4]!;
    const cr = (b[0]! - a[0]!) * (c[1]! - b[1]!) - (b[1]! - a[1]!) * (c[0]! - b[0]!);
    if (sign === 0) sign = Math.sign(cr);
    else if (Math.sign(cr) !== sign) return false;
    area += a[0]! * b[1]! - b[0]! * a[1]!;
  }
  const ratio = Math.abs(area / 2) / (w * h);
  return ratio > 0.005 && ratio < 50;
}

export { GRID };
