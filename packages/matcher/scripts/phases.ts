import { readFileSync } from 'node:fs';
import { loadCv } from '../src/cv.ts';
import { browserCompress, decodeGrey } from '../src/decode.ts';
import { extractFeatures } from '../src/extract.ts';
import { matchDescriptors } from '../src/hamming.ts';
import { verify } from '../src/verify.ts';
import { CONFIG, extractReference } from '../src/engine.ts';
const cv = await loadCv();
const d = '/work/shared/datasets/gift-photos/';
const ref = await extractReference(readFileSync(d + 'covers/reference/001.jpg'));
const qs = await Promise.all(['001-canon', '002-droid', '003-e63', '004-palm', '005-canon'].map((f) => browserCompress(readFileSync(d + `covers/photos/${f}.jpg`))));
const nq = Number(process.argv[2] ?? 1000), lv = Number(process.argv[3] ?? 8), sf = Number(process.argv[4] ?? 1.2), side = Number(process.argv[5] ?? 600);
const T = { dec: 0, orb: 0, ham: 0, ver: 0, cpu: 0 };
let n = 0;
for (let it = 0; it < 6; it++) for (const q of qs) {
  const c0 = process.cpuUsage();
  let t = performance.now();
  const img = await decodeGrey(q, side); const t1 = performance.now();
  const f = extractFeatures(cv, img, { maxFeatures: nq, fastThreshold: 20, nLevels: lv, scaleFactor: sf, grid: 0, oversample: 2 }); const t2 = performance.now();
  const c = matchDescriptors(f, ref, CONFIG.ratio, false); const t3 = performance.now();
  verify(f, ref, c); const t4 = performance.now();
  const cu = process.cpuUsage(c0);
  if (it > 0) { T.dec += t1 - t; T.orb += t2 - t1; T.ham += t3 - t2; T.ver += t4 - t3; T.cpu += (cu.user + cu.system) / 1000; n++; }
}
console.log(`nq ${nq} lv ${lv} sf ${sf} side ${side}:`, Object.entries(T).map(([k, v]) => `${k} ${(v / n).toFixed(1)}`).join('  '));
