/**
 * npm run -s recipes -w @giftlens/matcher [-- --pairs PAIRS.csv --seed 15]
 * Capture recipes compared on the hard cases (hardcase-gen.ts): each camera frame (1280x960, before compression) is
 * encoded as each candidate recipe would send it (fit N x N, JPEG quality q), the engine (shipped CONFIG, query side
 * = the recipe's side) scans it against its reference and 2 others. Prints per recipe: true matches (printed, 3D,
 * gifts under 20% of the frame), false matches, lowest genuine and highest impostor inliers, the scan's size and the
 * CPU of query extraction, with its ratio to the shipped recipe (measured interleaved, scene by scene).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import sharp from 'sharp';
import { loadCv } from '../cv.ts';
import { SCAN_RECIPE } from '../decode.ts';
import { CONFIG } from '../config.ts';
import { compare } from '../engine.ts';
import { extractReference } from '../enrol.ts';
import { accepts } from '../evidence.ts';
import { extractQuery } from '../staged.ts';
import type { Features } from '../features.ts';
import { argValue } from './dataset.ts';
import { giftOf } from './evidence.ts';
import { CONDITIONS, context, hardCase } from './hardcase-gen.ts';
import { hardcaseInputs } from './hardcase-report.ts';
import { withConfig } from './recipes.ts';

const RECIPES = [
  { name: `${SCAN_RECIPE.side} px, q${SCAN_RECIPE.quality} (shipped)`, side: SCAN_RECIPE.side, quality: SCAN_RECIPE.quality },
  { name: '540 px, q50', side: 540, quality: 50 },
  { name: '720 px, q50', side: 720, quality: 50 },
  { name: '800 px, q45', side: 800, quality: 45 },
];

const load0 = loadavg()[0]!;
const cv = await loadCv();
const { refs, kindOf, backgrounds } = hardcaseInputs(argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!, 2);
const feats = new Map<string, Features>();
for (const r of refs) feats.set(r, await extractReference(readFileSync(r)));
const ctx = context(cv, Number(argValue('--seed', '15')), backgrounds);

interface Row { kind: string; area: number; bytes: number; cpuUs: number; genuine: number; ok: boolean; impostors: { inliers: number; ok: boolean }[] }
const rows = RECIPES.map(() => [] as Row[]);
for (const condition of CONDITIONS) {
  for (const [i, r] of refs.entries()) {
    const hc = await hardCase(ctx, { path: r, gift: giftOf(r) }, condition);
    const others = refs.filter((x) => x !== r && giftOf(x) !== hc.backgroundGift);
    const imps = [0, 1].map((k) => others[(i + k * 7) % others.length]!);
    for (const [k, recipe] of RECIPES.entries()) {
      const jpeg = await sharp(hc.scene).resize({ width: recipe.side, height: recipe.side, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: recipe.quality }).toBuffer();
      // a larger recipe is only worth its bytes if the engine looks at its pixels: query side = the recipe's side
      await withConfig({ querySide: recipe.side > SCAN_RECIPE.side ? recipe.side : CONFIG.querySide }, async () => {
        const c0 = process.cpuUsage();
        const q = await extractQuery(jpeg);
        const u = process.cpuUsage(c0);
        const g = compare(q, feats.get(r)!);
        rows[k]!.push({
          kind: kindOf.get(r)!,
          area: hc.area,
          bytes: jpeg.length,
          cpuUs: u.user + u.system,
          genuine: g.inliers,
          ok: accepts(g.inliers, g.spread),
          impostors: imps.map((o) => {
            const e = compare(q, feats.get(o)!);
            return { inliers: e.inliers, ok: accepts(e.inliers, e.spread) };
          }),
        });
      });
    }
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const count = (xs: Row[], kind?: string) => `${xs.filter((x) => x.ok && (!kind || x.kind === kind)).length}/${xs.filter((x) => !kind || x.kind === kind).length}`;
const cpu0 = rows[0]!.reduce((a, x) => a + x.cpuUs, 0);
console.log(`capture recipes on the hard cases (${refs.length} references x ${CONDITIONS.length} conditions, 2 impostors each); engine: query side ${CONFIG.querySide} px, or the recipe's side when it is larger than ${SCAN_RECIPE.side}; load average ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
console.log('| recipe | true printed | true 3D | gifts < 20% of the frame | false matches | lowest genuine | highest impostor | KB median / max | extraction CPU ms (ratio) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [k, recipe] of RECIPES.entries()) {
  const xs = rows[k]!;
  const imps = xs.flatMap((x) => x.impostors);
  const cpu = xs.reduce((a, x) => a + x.cpuUs, 0);
  console.log(
    `| ${recipe.name} | ${count(xs, 'printed-flat')} | ${count(xs, 'object-3d')} | ${count(xs.filter((x) => x.area < 0.2))} | ${imps.filter((x) => x.ok).length}/${imps.length} | ` +
      `${Math.min(...xs.map((x) => x.genuine))} | ${Math.max(...imps.map((x) => x.inliers))} | ${(median(xs.map((x) => x.bytes)) / 1024).toFixed(0)} / ${(Math.max(...xs.map((x) => x.bytes)) / 1024).toFixed(0)} | ` +
      `${(cpu / 1000 / xs.length).toFixed(1)} (x${(cpu / cpu0).toFixed(2)}) |`,
  );
}
