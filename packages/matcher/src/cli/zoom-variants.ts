/**
 * npm run -s zoomvariants -w @giftlens/matcher -- --pairs PAIRS.csv [--step 4] [--impostors 6] [--views w2l4,c7l1,...]
 *
 * How decision 052's zoomed look was chosen: on hard cases of `npm run -s phonecases` (the same generator and seeds,
 * other scenes: every `step`-th cover and every 2nd object), each scene against its reference and `impostors` others, the
 * evidence the engine had before (first and second look) and, per variant of the zoomed look, its evidence as the
 * engine computes it (`zoomedFeatures`, `zoomLookAt`: the enlarged picture, then a second look from its model). A variant is `w` (the whole picture) or `c` (its middle, that
 * many tenths of the width and height) with its zoom (w2 = x2, w15 = x1.5; the middle is always x2), `l` ORB levels
 * and optionally `n` features (default 1000): `c7l1` = the middle 70% x2, one level. Prints, per condition and
 * strength, the genuine scenes each variant brings to CONFIG.zoomLookBar (with the looks before it at the bar) and its
 * highest impostor, and its CPU per comparison (its extraction counted in every comparison: an upper bound).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCv } from '../cv.ts';
import { CONFIG } from '../config.ts';
import { compare } from '../engine.ts';
import { extractReference } from '../enrol.ts';
import { zoomedFeatures, zoomLookAt } from '../looks.ts';
import { extractQuery } from '../staged.ts';
import { layer, type Features } from '../features.ts';
import { argValue, readPairs } from './dataset.ts';
import { giftIndex, giftOf } from './evidence.ts';
import { PHONE_CONDITIONS, STRENGTHS } from './hardcase-gen.ts';
import { variantScenes } from './variant-scenes.ts';
import { withConfig, type EngineConfig } from './recipes.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const step = Number(argValue('--step', '4'));
const nImp = Number(argValue('--impostors', '6'));
const only = argValue('--conditions')?.split(',');
const outDir = argValue('--out', join(tmpdir(), 'giftlens-matcher', 'zoom-variants'))!;
mkdirSync(outDir, { recursive: true });
const cv = await loadCv();
const pairs = readPairs(csv);
const { refPaths } = giftIndex(pairs);
const refs = new Map<string, Features>();
for (const r of refPaths) refs.set(r, await extractReference(readFileSync(r)));

const cpu = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/** A variant: the engine's zoomed look under these settings (CONFIG overrides), run by the engine's own code. */
interface View { name: string; config: Partial<EngineConfig> }
const VIEWS: View[] = (argValue('--views') ?? 'w2l4,w2l2,w2l1,w15l2,c8l1,c7l1,c6l1,c5l1').split(',').map((k) => {
  const m = /^([wc])(\d+)l(\d)(?:n(\d+))?$/.exec(k);
  if (!m) throw new Error(`--views: ${k} is not w<zoom>l<levels>[n<features>] or c<tenths>l<levels>[n<features>]`);
  const zoomLevels = Number(m[3]), zoomFeatures = m[4] ? Number(m[4]) : 1000;
  const config = m[1] === 'w'
    ? { zoomLook: Number(m[2]) / (m[2]!.length > 1 ? 10 : 1), zoomCentre: 1 }
    : { zoomLook: 2, zoomCentre: Number(m[2]) / 10 };
  return { name: k, config: { ...config, zoomLevels, zoomFeatures } };
});

const rows: Record<string, unknown>[] = [];
for await (const { condition, strength, gift, kind, hc, against } of variantScenes(cv, pairs, { step, impostors: nImp, ...(only ? { only } : {}) })) {
  const q = await extractQuery(hc.jpeg);
  const img = q.image!;
  // the evidence before decision 052: compare() without the zoomed look (nor the tilted look, decision 053)
  const before = await withConfig({ zoomLook: 0, tiltLook: 0 }, () => Promise.resolve(against.map((ref) => compare(q, refs.get(ref)!))));
  const rowsOfScene = against.map((ref, k): Record<string, unknown> => {
    const e = before[k]!;
    return { condition, strength, gift, kind, genuine: giftOf(ref) === gift, first: e.firstLook ?? e.inliers, second: e.secondLook ?? null };
  });
  for (const v of VIEWS) {
    await withConfig(v.config, () => {
      const c0 = process.cpuUsage();
      const zoomed = zoomedFeatures(img);
      const extractMs = cpu(c0);
      for (const [k, ref] of against.entries()) {
        const c1 = process.cpuUsage();
        rowsOfScene[k]![v.name] = zoomLookAt(img, zoomed, layer(refs.get(ref)!, 0)).inliers;
        rowsOfScene[k]![`${v.name} ms`] = extractMs + cpu(c1);
      }
      return Promise.resolve();
    });
  }
  rows.push(...rowsOfScene);
  writeFileSync(join(outDir, 'rows.json'), JSON.stringify(rows));
}

const BAR = CONFIG.minInliers, SBAR = CONFIG.secondLookBar, ZBAR = CONFIG.zoomLookBar;
const shipped = (r: Record<string, unknown>) => Math.max(r.first as number, (r.second as number | null) !== null && (r.second as number) >= SBAR && (r.first as number) >= 6 ? (r.second as number) : 0);
const withView = (r: Record<string, unknown>, v: string, zbar: number) => {
  const z = r[v] as number;
  return Math.max(shipped(r) >= BAR ? shipped(r) : 0, z >= zbar ? z : 0);
};
for (const c of PHONE_CONDITIONS) for (const s of STRENGTHS) {
  const sel = rows.filter((r) => r.condition === c && r.strength === s);
  if (!sel.length) continue;
  const gen = sel.filter((r) => r.genuine), imp = sel.filter((r) => !r.genuine);
  const parts = [`${c} / ${s}: before 052 ${gen.filter((r) => shipped(r) >= BAR).length}/${gen.length} (imp max first ${Math.max(...imp.map((r) => r.first as number))})`];
  for (const v of VIEWS) {
    parts.push(`${v.name}: ${gen.filter((r) => withView(r, v.name, ZBAR) >= BAR).length} (imp max ${Math.max(...imp.map((r) => r[v.name] as number))})`);
  }
  console.log(parts.join('; '));
}
for (const v of VIEWS) {
  const ms = rows.map((r) => r[`${v.name} ms`] as number).sort((a, b) => a - b);
  console.log(`${v.name}: CPU per comparison median ${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms`);
}
