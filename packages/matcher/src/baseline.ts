/**
 * The textbook recipe, for comparison only: ORB 2000 keypoints on the photo as given, brute-force Hamming 2-NN
 * (OpenCV BFMatcher), Lowe ratio 0.8, RANSAC homography (OpenCV findHomography, 5 px), accept at 20 inliers.
 */
import { loadCv } from './cv.ts';
import { decodeGrey } from './decode.ts';
import { extractFeatures } from './extract.ts';
import { DESC_BYTES, type Features } from './features.ts';

const ORB_OPTS = { maxFeatures: 2000, fastThreshold: 20, nLevels: 8, scaleFactor: 1.2, grid: 0, oversample: 1 };

export async function baselineExtract(image: Buffer | Uint8Array): Promise<Features> {
  const cv = await loadCv();
  return extractFeatures(cv, await decodeGrey(image, 4096), ORB_OPTS);
}

export async function baselineMatch(
  query: Buffer | Uint8Array,
  references: Features[][],
): Promise<{ matched: boolean; bestIndex: number; inliers: number; ms: number }> {
  const t0 = performance.now();
  const cv = await loadCv();
  const q = await baselineExtract(query);
  let best = 0;
  let bestIndex = -1;
  const qd = cv.matFromArray(q.count, DESC_BYTES, cv.CV_8U, q.desc);
  const bf = new cv.BFMatcher(cv.NORM_HAMMING, false);
  try {
    references.forEach((gift, gi) => {
      for (const r of gift) {
        const n = inliersAgainst(cv, q, qd, r, bf);
        if (n > best) {
          best = n;
          bestIndex = gi;
        }
      }
    });
  } finally {
    bf.delete();
    qd.delete();
  }
  return { matched: best >= 20, bestIndex, inliers: best, ms: Math.round(performance.now() - t0) };
}

function inliersAgainst(cv: import('./cv.ts').CV, q: Features, qd: import('./cv.ts').Mat, r: Features, bf: import('./cv.ts').BFMatcher): number {
  return modelAgainst(cv, q, qd, r, bf).inliers;
}

/**
 * Where the textbook recipe places `reference` in `photo` (both as extracted at `maxSide`): the homography from the
 * reference's pixels to the photo's (row-major 3x3) and its RANSAC inliers, or null under `minInliers`. For the
 * hard-case generator, to put a condition on the gift's own surface in a phone photo; not on any scan's path.
 */
export async function baselinePlace(
  reference: Buffer | Uint8Array,
  photo: Buffer | Uint8Array,
  maxSide: number,
  minInliers = 20,
): Promise<{ map: number[]; inliers: number; reference: { width: number; height: number }; photo: { width: number; height: number } } | null> {
  const cv = await loadCv();
  const r = extractFeatures(cv, await decodeGrey(reference, maxSide), ORB_OPTS);
  const q = extractFeatures(cv, await decodeGrey(photo, maxSide), ORB_OPTS);
  const qd = cv.matFromArray(Math.max(q.count, 1), DESC_BYTES, cv.CV_8U, q.count ? q.desc : new Uint8Array(DESC_BYTES));
  const bf = new cv.BFMatcher(cv.NORM_HAMMING, false);
  try {
    const m = modelAgainst(cv, q, qd, r, bf);
    if (!m.map || m.inliers < minInliers) return null;
    return { map: m.map, inliers: m.inliers, reference: { width: r.width, height: r.height }, photo: { width: q.width, height: q.height } };
  } finally {
    bf.delete();
    qd.delete();
  }
}

function modelAgainst(
  cv: import('./cv.ts').CV,
  q: Features,
  qd: import('./cv.ts').Mat,
  r: Features,
  bf: import('./cv.ts').BFMatcher,
): { inliers: number; map?: number[] } {
  if (q.count < 2 || r.count < 2) return { inliers: 0 };
  const rd = cv.matFromArray(r.count, DESC_BYTES, cv.CV_8U, r.desc);
  const knn = new cv.DMatchVectorVector();
  try {
    bf.knnMatch(qd, rd, knn, 2);
    const src: number[] = [];
    const dst: number[] = [];
    for (let i = 0; i < knn.size(); i++) {
      const m = knn.get(i);
      try {
        if (m.size() < 2) continue;
        const a = m.get(0);
        const b = m.get(1);
        if (a.distance < 0.8 * b.distance) {
          src.push(r.x[a.trainIdx]!, r.y[a.trainIdx]!);
          dst.push(q.x[a.queryIdx]!, q.y[a.queryIdx]!);
        }
      } finally {
        m.delete();
      }
    }
    if (src.length < 8) return { inliers: 0 };
    const s = cv.matFromArray(src.length / 2, 1, cv.CV_32FC2, src);
    const d = cv.matFromArray(dst.length / 2, 1, cv.CV_32FC2, dst);
    const mask = new cv.Mat();
    let h: import('./cv.ts').Mat | undefined;
    try {
      h = cv.findHomography(s, d, cv.RANSAC, 5, mask);
      if (h.empty()) return { inliers: 0 };
      let n = 0;
      for (let i = 0; i < mask.rows; i++) if (mask.data[i]) n++;
      return { inliers: n, map: Array.from(h.data64F.subarray(0, 9)) };
    } finally {
      h?.delete();
      mask.delete();
      d.delete();
      s.delete();
    }
  } finally {
    knn.delete();
    rd.delete();
  }
}
