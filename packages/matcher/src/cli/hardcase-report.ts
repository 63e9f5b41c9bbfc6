/**
 * The hard-case table (printed by `npm run -s hardcases` and by the bench): every reference of the data set (every
 * `step`-th cover, all objects) under every condition of hardcase-gen.ts, scanned against its own reference
 * (genuine) and against `impostors` other references. Generated images are written to `outDir` (not into git).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadCv } from '../cv.ts';
import { compare } from '../engine.ts';
import { extractReference } from '../enrol.ts';
import { accepts } from '../evidence.ts';
import { extractQuery } from '../staged.ts';
import type { Features } from '../features.ts';
import { readPairs } from './dataset.ts';
import { giftOf } from './evidence.ts';
import { CONDITIONS, context, hardCase } from './hardcase-gen.ts';

export interface HardcaseOptions {
  csv: string;
  seed: number;
  step: number;
  impostors: number;
  outDir: string;
}

export interface HardcaseRow {
  condition: string;
  kind: string;
  area: number;
  genuine: { inliers: number; accepted: boolean };
  impostors: { inliers: number; accepted: boolean }[];
}

const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(0)}%` : '—');

/** The references a hard-case run uses (every `step`-th cover, all objects), their kinds, and the scenes' backgrounds. */
export function hardcaseInputs(csv: string, step: number) {
  const pairs = readPairs(csv);
  const all = [...new Set(pairs.map((p) => p.referencePath))].sort();
  const refs = all.filter((p, i) => !p.includes('/covers/') || i % step === 0);
  const kindOf = new Map(pairs.map((p) => [p.referencePath, p.kind]));
  const backgrounds = [...new Set(pairs.filter((p) => p.queryPath.includes('/objects/')).flatMap((p) => [p.queryPath, p.referencePath]))]
    .sort()
    .map((path) => ({ name: basename(path), path, gift: giftOf(path) }));
  return { refs, kindOf, backgrounds };
}

export async function hardcases(o: HardcaseOptions): Promise<{ lines: string[]; rows: HardcaseRow[] }> {
  const cv = await loadCv();
  const { refs, kindOf, backgrounds } = hardcaseInputs(o.csv, o.step);
  const feats = new Map<string, Features>();
  for (const r of refs) feats.set(r, await extractReference(readFileSync(r)));
  const ctx = context(cv, o.seed, backgrounds);
  mkdirSync(o.outDir, { recursive: true });
  const rows: HardcaseRow[] = [];
  for (const condition of CONDITIONS) {
    for (const [i, r] of refs.entries()) {
      const hc = await hardCase(ctx, { path: r, gift: giftOf(r) }, condition);
      writeFileSync(join(o.outDir, `${condition.replace(/ /g, '-')}--${basename(r, '.jpg')}${r.includes('/objects/') ? '-object' : ''}.jpg`), hc.jpeg);
      const q = await extractQuery(hc.jpeg);
      const g = compare(q, feats.get(r)!);
      const others = refs.filter((x) => x !== r && giftOf(x) !== hc.backgroundGift);
      const imps = Array.from({ length: o.impostors }, (_, k) => others[(i + k * 7) % others.length]!).map((other) => {
        const e = compare(q, feats.get(other)!);
        return { inliers: e.inliers, accepted: accepts(e.inliers, e.spread) };
      });
      rows.push({ condition, kind: kindOf.get(r)!, area: hc.area, genuine: { inliers: g.inliers, accepted: accepts(g.inliers, g.spread) }, impostors: imps });
    }
  }
  const lines = [
    `hard cases (seed ${o.seed}): ${refs.length} references (${refs.filter((r) => r.includes('/covers/')).length} covers, ${refs.filter((r) => !r.includes('/covers/')).length} objects) x ${CONDITIONS.length} conditions, ` +
      `composited into real/synthetic scenes at 10–40% of the frame's area, compressed like the browser; each against its reference and ${o.impostors} others; images in ${o.outDir}`,
    '| condition | true matches printed | true matches 3D | by area 10–20% / 20–30% / 30–40% | false matches | median / lowest genuine inliers | highest impostor |',
    '|---|---|---|---|---|---|---|',
  ];
  const summarise = (name: string, sel: HardcaseRow[]): string => {
    const p = sel.filter((x) => x.kind === 'printed-flat'), d = sel.filter((x) => x.kind !== 'printed-flat');
    const ok = (xs: HardcaseRow[]) => xs.filter((x) => x.genuine.accepted).length;
    const bin = (lo: number, hi: number) => {
      const b = sel.filter((x) => x.area >= lo && x.area < hi);
      return pct(ok(b), b.length);
    };
    const imps = sel.flatMap((x) => x.impostors);
    const gi = sel.map((x) => x.genuine.inliers).sort((a, b) => a - b);
    return (
      `| ${name} | ${ok(p)}/${p.length} (${pct(ok(p), p.length)}) | ${ok(d)}/${d.length} (${pct(ok(d), d.length)}) | ${bin(0.1, 0.2)} / ${bin(0.2, 0.3)} / ${bin(0.3, 0.41)} | ` +
      `${imps.filter((x) => x.accepted).length}/${imps.length} | ${gi[Math.floor(gi.length / 2)] ?? 0} / ${gi[0] ?? 0} | ${Math.max(0, ...imps.map((x) => x.inliers))} |`
    );
  };
  for (const c of CONDITIONS) lines.push(summarise(c, rows.filter((x) => x.condition === c)));
  lines.push(summarise('all', rows));
  return { lines, rows };
}
