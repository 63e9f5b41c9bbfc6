// Dev tool: accuracy/CPU sweep. Env: RS (ref side) QS (query side) NR NQ LV SF RATIO MIN
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadCv } from '../cv.ts';
import { browserCompress, decodeGrey } from '../decode.ts';
import { extractFeatures } from '../extract.ts';
import { matchLayers } from '../hamming.ts';
import { verify, DEFAULT_VERIFY } from '../verify.ts';
import type { Features } from '../features.ts';
const E = (k: string, d: number) => Number(process.env[k] ?? d);
const csv = '/work/shared/datasets/gift-photos/pairs.csv';
const base = dirname(csv);
const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => { const [reference, query, label, kind] = l.split(','); return { reference: reference!, query: query!, label: label === '1', kind: kind! }; });
const cv = await loadCv();
const VO = { ...DEFAULT_VERIFY, finalTol: E('FT', DEFAULT_VERIFY.finalTol), hypTol: E('HT', DEFAULT_VERIFY.hypTol), refine: E('REF', DEFAULT_VERIFY.refine) };
const opt = (n: number, lv: number, sf: number) => ({ maxFeatures: n, fastThreshold: E('FAST', 20), nLevels: lv, scaleFactor: sf, grid: 0, oversample: 2 });
const refs = new Map<string, Features>(); const qs = new Map<string, Features>(); const qbuf = new Map<string, Buffer>();
for (const r of rows) if (!refs.has(r.reference)) refs.set(r.reference, extractFeatures(cv, await decodeGrey(readFileSync(join(base, r.reference)), E('RS', 640)), opt(E('NR', 1000), E('RLV', E('LV', 8)), E('RSF', E('SF', 1.2)))));
for (const r of rows) if (!qbuf.has(r.query)) qbuf.set(r.query, await browserCompress(readFileSync(join(base, r.query))));
let c0 = process.cpuUsage();
for (const [k, b] of qbuf) qs.set(k, extractFeatures(cv, await decodeGrey(b, E('QS', 600)), opt(E('NQ', 1000), E('LV', 8), E('SF', 1.2))));
let cu = process.cpuUsage(c0); const tq = (cu.user + cu.system) / 1000 / qbuf.size;
const out: string[] = [];
for (const ratio of (process.env.RATIO ?? '0.85').split(',').map(Number)) {
  const res = [] as { kind: string; label: boolean; inl: number; sp: number }[];
  c0 = process.cpuUsage();
  for (const r of rows) { const q = qs.get(r.query)!, f = refs.get(r.reference)!; const c = matchLayers(q, f, ratio, 256, E('SPOT', 0)); const v = verify(q, f, c, VO); res.push({ kind: r.kind, label: r.label, inl: v.inliers, sp: Math.round(v.spread * 36) }); }
  cu = process.cpuUsage(c0); const tm = (cu.user + cu.system) / 1000 / rows.length;
  const min = E('MIN', 15);
  const s = ['printed-flat', 'object-3d'].map((kind) => {
    const g = res.filter((x) => x.kind === kind && x.label), im = res.filter((x) => x.kind === kind && !x.label);
    const acc = g.filter((x) => x.inl >= min && x.sp >= 3).length;
    const gl = g.map((x) => x.inl).sort((a, b) => a - b).slice(0, 4).join(',');
    return `${kind} ${acc}/${g.length} low[${gl}] impMax ${Math.max(...im.map((x) => x.inl))} FM ${im.filter((x) => x.inl >= min && x.sp >= 3).length}`;
  }).join(' | ');
  out.push(`ratio ${ratio}: cpu q ${tq.toFixed(1)} + m ${tm.toFixed(1)} ms | ${s}`);
}
console.log(['RS', 'QS', 'NR', 'NQ', 'LV', 'SF', 'RLV', 'RSF', 'FAST'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`).join(' '));
console.log(out.join('\n'));
if (process.env.DUMP) {
  for (const ratio of [Number(process.env.DUMP)]) {
    const res = rows.map((r) => { const q = qs.get(r.query)!, f = refs.get(r.reference)!; const c = matchLayers(q, f, ratio, 256, E('SPOT', 0)); const v = verify(q, f, c, VO); return { ...r, n: c.count, inl: v.inliers, sp: Math.round(v.spread * 36), qsp: Math.round(v.querySpread * 36), model: v.model }; });
    const imp = res.filter((x) => !x.label).sort((a, b) => b.inl - a.inl).slice(0, 12);
    const gen = res.filter((x) => x.label).sort((a, b) => a.inl - b.inl).slice(0, 12);
    console.log('impostors:', imp.map((x) => `${x.inl}/${x.n} sp${x.sp} q${x.qsp} ${x.model[0]}`).join('  '));
    console.log('genuine:  ', gen.map((x) => `${x.inl}/${x.n} sp${x.sp} q${x.qsp} ${x.model[0]} ${x.query.slice(-10)}`).join('  '));
  }
}
