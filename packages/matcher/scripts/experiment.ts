// Dev tool: extract features of the data set once, then sweep matching/verification settings.
// tsx scripts/experiment.ts [refSide] [qSide] [nRef] [nQ] [grid]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadCv } from '../src/cv.ts';
import { browserCompress, decodeGrey } from '../src/decode.ts';
import { extractFeatures } from '../src/extract.ts';
import { matchDescriptors } from '../src/hamming.ts';
import { verifyHomographyCv } from '../src/geometry.ts';
import { verify, DEFAULT_VERIFY } from '../src/verify.ts';
import type { Features } from '../src/features.ts';

const csv = process.env.PAIRS ?? '/work/shared/datasets/gift-photos/pairs.csv';
const base = dirname(csv);
const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => {
  const [reference, query, label, kind] = l.split(',');
  return { reference: reference!, query: query!, label: label === '1', kind: kind! };
});
const [refSide, qSide, nRef, nQ, grid] = process.argv.slice(2).map(Number);
const cv = await loadCv();
const opt = (n: number) => ({ maxFeatures: n, fastThreshold: Number(process.env.FAST ?? 20), nLevels: 8, scaleFactor: 1.2, grid: grid ?? 0, oversample: 2 });
const refs = new Map<string, Features>();
const qs = new Map<string, Features>();
let t = performance.now();
for (const r of rows) {
  if (!refs.has(r.reference)) refs.set(r.reference, extractFeatures(cv, await decodeGrey(readFileSync(join(base, r.reference)), refSide ?? 640), opt(nRef ?? 1000)));
}
const tRef = (performance.now() - t) / refs.size;
const qbufs = new Map<string, Buffer>();
for (const r of rows) if (!qbufs.has(r.query)) qbufs.set(r.query, await browserCompress(readFileSync(join(base, r.query))));
t = performance.now();
for (const [k, b] of qbufs) qs.set(k, extractFeatures(cv, await decodeGrey(b, qSide ?? 600), opt(nQ ?? 500)));
const tQ = (performance.now() - t) / qs.size;
console.log(`ref extract ${tRef.toFixed(1)} ms, query decode+extract ${tQ.toFixed(1)} ms`);

const ratios = (process.env.RATIOS ?? '0.8').split(',').map(Number);
const threshs = (process.env.TH ?? '5').split(',').map(Number);
const cross = process.env.CROSS === '1';
for (const ratio of ratios) for (const th of threshs) {
  const res: { kind: string; label: boolean; inl: number; sp: number; qsp: number; n: number; pair: string }[] = [];
  let tm = 0;
  for (const r of rows) {
    const q = qs.get(r.query)!;
    const f = refs.get(r.reference)!;
    const t0 = performance.now();
    const c = matchDescriptors(q, f, ratio, cross);
    const v = process.env.CVH ? verifyHomographyCv(cv, q, f, c, cv.RANSAC, th) : verify(q, f, c, { ...DEFAULT_VERIFY, finalTol: th / 600, model: (process.env.MODEL ?? 'best') as 'best' });
    tm += performance.now() - t0;
    res.push({ kind: r.kind, label: r.label, inl: v.inliers, sp: v.spread, qsp: v.querySpread, n: c.count, pair: `${r.reference} ${r.query}` });
  }
  console.log(`ratio ${ratio} th ${th} cross ${cross}: match+verify ${(tm / rows.length).toFixed(1)} ms/pair`);
  for (const kind of ['printed-flat', 'object-3d']) {
    const g = res.filter((x) => x.kind === kind && x.label).map((x) => x.inl).sort((a, b) => a - b);
    const im = res.filter((x) => x.kind === kind && !x.label).map((x) => x.inl).sort((a, b) => a - b);
    console.log(`  ${kind}: genuine inliers lowest ${g.slice(0, 8).join(' ')} | impostor highest ${im.slice(-8).join(' ')}`);
    const imsp = res.filter((x) => x.kind === kind && !x.label).sort((a, b) => b.inl - a.inl).slice(0, 4);
    console.log(`    top impostors: ${imsp.map((x) => `${x.inl}/${x.sp.toFixed(2)}/${x.qsp.toFixed(2)}`).join(' ')}`);
    const gl = res.filter((x) => x.kind === kind && x.label).sort((a, b) => a.inl - b.inl).slice(0, 6);
    console.log(`    weakest genuine: ${gl.map((x) => `${x.inl}/${x.sp.toFixed(2)}/${x.qsp.toFixed(2)}(${x.n})`).join(' ')}`);
    if (process.env.VERBOSE) console.log(gl.map((x) => x.pair).join('\n'));
  }
}
