/**
 * npm run -s tiltvariants -w @giftlens/matcher -- --pairs PAIRS.csv [--step 4] [--impostors 6] [--conditions C,...]
 *   [--views d3x400l8b,...]
 *
 * How decision 053's tilted look was chosen: references seen squeezed as a steep tilt squeezes them (tiltedViews), on
 * the hard-case scenes the variant tools share (variant-scenes.ts). A variant is `d<directions>x<features>l<levels>
 * [t<squeeze x10>][b]`: d3 = 0, 60 and 120 degrees (evenly over 180), x400 = grey keypoints per view, l8 = ORB levels,
 * t20 = squeezed 2x (a 60 degree tilt; the default), b = only the query's base-level keypoints are compared (those of
 * the first pass) instead of all its grey keypoints. Prints per condition and strength the genuine scenes each variant
 * brings to CONFIG.tiltLookBar on top of the recipe before it, its highest impostor, its CPU per impostor comparison
 * and per enrolled reference. Shipped: d3x400l8b.
 */
import { readFileSync } from 'node:fs';
import { loadCv } from '../cv.ts';
import { decodeStaged } from '../decode.ts';
import { CONFIG } from '../config.ts';
import { compare } from '../engine.ts';
import { extractReference } from '../enrol.ts';
import { tiltedViews, tiltLookAt } from '../looks.ts';
import { extractQuery } from '../staged.ts';
import { layer, pick, stackLayers, type Features } from '../features.ts';
import { argValue, readPairs } from './dataset.ts';
import { giftIndex, giftOf } from './evidence.ts';
import { PHONE_CONDITIONS, STRENGTHS } from './hardcase-gen.ts';
import { withConfig } from './recipes.ts';
import { variantScenes } from './variant-scenes.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const step = Number(argValue('--step', '4'));
const nImp = Number(argValue('--impostors', '6'));
const only = argValue('--conditions')?.split(',');
const cv = await loadCv();
const pairs = readPairs(csv);
const { refPaths } = giftIndex(pairs);

interface View { name: string; dirs: number[]; t: number; n: number; levels: number; base: boolean }
const VIEWS: View[] = (argValue('--views') ?? 'd3x400l8b,d3x400l8,d4x300l8b,d2x400l8,d3x400l4b').split(',').map((k) => {
  const m = /^d(\d)x(\d+)l(\d)(?:t(\d+))?(b)?$/.exec(k);
  if (!m) throw new Error(`--views: ${k}`);
  const d = Number(m[1]);
  return { name: k, dirs: Array.from({ length: d }, (_, i) => (i * 180) / d), n: Number(m[2]), levels: Number(m[3]), t: m[4] ? Number(m[4]) / 10 : 2, base: m[5] === 'b' };
});
const cpu = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
const refs = new Map<string, Features>();
const tilted = new Map<string, Features>();
const enrolMs: Record<string, number> = {};
for (const r of refPaths) {
  const bytes = readFileSync(r);
  refs.set(r, await extractReference(bytes));
  const grey = (await decodeStaged(bytes, CONFIG.refSide)).grey;
  for (const v of VIEWS) {
    const c0 = process.cpuUsage();
    const views = tiltedViews(grey, v.dirs, v.t, v.n, v.levels);
    enrolMs[v.name] = (enrolMs[v.name] ?? 0) + cpu(c0);
    const stacked = stackLayers(views, []);
    tilted.set(`${v.name}|${r}`, { ...stacked, layers: [0, stacked.count] });
  }
}

const rows: Record<string, unknown>[] = [];
for await (const { condition, strength, gift, kind, hc, against } of variantScenes(cv, pairs, { step, impostors: nImp, ...(only ? { only } : {}) })) {
  const q = await extractQuery(hc.jpeg);
  const qGrey = layer(q, 0);
  const qBase = pick(qGrey, Array.from({ length: qGrey.count }, (_, i) => i).filter((i) => qGrey.size[i] === 31));
  for (const ref of against) {
    // the recipe before decision 053 (no tilted look), each look counted from its own bar as match() does
    const e = await withConfig({ tiltLook: 0 }, () => Promise.resolve(compare(q, refs.get(ref)!)));
    const first = e.firstLook ?? e.inliers;
    const second = e.secondLook !== undefined && first >= CONFIG.secondLook && e.secondLook >= CONFIG.secondLookBar ? e.secondLook : 0;
    const zoom = (e.zoomLook ?? 0) >= CONFIG.zoomLookBar ? e.zoomLook! : 0;
    const before = Math.max(first >= CONFIG.minInliers ? first : 0, second, zoom);
    const row: Record<string, unknown> = { condition, strength, gift, kind, genuine: giftOf(ref) === gift, before, first };
    for (const v of VIEWS) {
      const c0 = process.cpuUsage();
      row[v.name] = tiltLookAt(q.image!, v.base ? qBase : qGrey, tilted.get(`${v.name}|${ref}`)!, layer(refs.get(ref)!, 0)).inliers;
      row[`${v.name} ms`] = cpu(c0);
    }
    rows.push(row);
  }
}
const BAR = CONFIG.minInliers, TBAR = CONFIG.tiltLookBar;
for (const c of PHONE_CONDITIONS) for (const s of STRENGTHS) {
  const sel = rows.filter((r) => r.condition === c && r.strength === s);
  if (!sel.length) continue;
  const gen = sel.filter((r) => r.genuine), imp = sel.filter((r) => !r.genuine);
  const parts = [`${c} / ${s}: before 053 ${gen.filter((r) => (r.before as number) >= BAR).length}/${gen.length}`];
  for (const v of VIEWS) parts.push(`${v.name}: ${gen.filter((r) => (r.before as number) >= BAR || (r[v.name] as number) >= TBAR).length} (imp max ${Math.max(...imp.map((r) => r[v.name] as number))})`);
  console.log(parts.join('; '));
}
for (const v of VIEWS) {
  const ms = rows.filter((r) => !r.genuine).map((r) => r[`${v.name} ms`] as number).sort((a, b) => a - b);
  const imp = rows.filter((r) => !r.genuine).map((r) => r[v.name] as number).sort((a, b) => b - a);
  console.log(`${v.name}: CPU per impostor comparison median ${ms[Math.floor(ms.length / 2)]!.toFixed(2)} ms; enrolment ${(enrolMs[v.name]! / refPaths.length).toFixed(1)} ms per reference; highest impostors ${imp.slice(0, 5).join(', ')}`);
}
