import { readFileSync } from 'node:fs';
import { loadCv } from '../src/cv.ts';
import { browserCompress, decodeGrey } from '../src/decode.ts';
import { extractFeatures } from '../src/extract.ts';
import { matchDescriptors } from '../src/hamming.ts';
const cv = await loadCv();
const q = await browserCompress(readFileSync('/work/shared/datasets/gift-photos/covers/photos/001-canon.jpg'));
const r = readFileSync('/work/shared/datasets/gift-photos/covers/reference/001.jpg');
function time(name: string, fn: () => unknown, n = 20) { fn(); const t = performance.now(); for (let i = 0; i < n; i++) fn(); console.log(name, ((performance.now() - t) / n).toFixed(2), 'ms'); }
async function atime(name: string, fn: () => Promise<unknown>, n = 20) { await fn(); const t = performance.now(); for (let i = 0; i < n; i++) await fn(); console.log(name, ((performance.now() - t) / n).toFixed(2), 'ms'); }
await atime('decode q 600', () => decodeGrey(q, 600));
await atime('decode q 480', () => decodeGrey(q, 480));
const img = await decodeGrey(q, 600);
const img480 = await decodeGrey(q, 480);
for (const [lv, sf] of [[8, 1.2], [6, 1.3], [5, 1.4], [4, 1.5]] as const) for (const n of [500, 1000]) {
  time(`orb 600 n${n} lv${lv} sf${sf}`, () => extractFeatures(cv, img, { maxFeatures: n, fastThreshold: 20, nLevels: lv, scaleFactor: sf, grid: 0, oversample: 2 }), 10);
}
time(`orb 480 n500 lv8`, () => extractFeatures(cv, img480, { maxFeatures: 500, fastThreshold: 20, nLevels: 8, scaleFactor: 1.2, grid: 0, oversample: 2 }), 10);
const fq = extractFeatures(cv, img, { maxFeatures: 500, fastThreshold: 20, nLevels: 8, scaleFactor: 1.2, grid: 0, oversample: 2 });
const fr = extractFeatures(cv, await decodeGrey(r, 640), { maxFeatures: 1000, fastThreshold: 20, nLevels: 8, scaleFactor: 1.2, grid: 0, oversample: 2 });
console.log(fq.count, fr.count);
time('hamming js 500x1000', () => matchDescriptors(fq, fr, 0.8, false));
const a = cv.matFromArray(fq.count, 32, cv.CV_8U, fq.desc); const b = cv.matFromArray(fr.count, 32, cv.CV_8U, fr.desc);
const bf = new cv.BFMatcher(cv.NORM_HAMMING, false);
time('bf knn 500x1000', () => { const m = new cv.DMatchVectorVector(); bf.knnMatch(a, b, m, 2); m.delete(); });
