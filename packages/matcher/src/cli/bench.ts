/**
 * npm run bench:matcher [-- --pairs PAIRS.csv] [--n20 N] [--baseline-n20 N] [--no-baseline] [--no-crossval] [--no-hardcases]
 * Per kind and overall: true-match rate, false-match rate, median and p95 ms per scan (one gift), and the time of a
 * scan against 20 gifts; the same for the textbook baseline, and each figure's ratio to it. Then the speed of the
 * shipped recipe beside the earlier ones (recipes.ts) in the same run: CPU ms per scan (process.cpuUsage) and scans/s
 * on a pool of 2 workers. Then the leave-gifts-out cross-validation of the decision rule (crossval-report.ts) and the
 * hard-case table (hardcase-report.ts). Queries get the browser's compression first (browserCompress); times are
 * wall-clock, in this thread. Load average printed at the start and the end.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { baselineExtract, baselineMatch } from '../baseline.ts';
import { loadCv } from '../cv.ts';
import { browserCompress } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { createMatcherPool } from '../pool.ts';
import type { Features } from '../features.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crossval, CROSSVAL_DEFAULTS } from './crossval-report.ts';
import { argValue, readPairs, type Pair } from './dataset.ts';
import { hardcases } from './hardcase-report.ts';
import { RECIPE_026, RECIPES, withConfig, type Recipe } from './recipes.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const n20 = Number(argValue('--n20', '60'));
const baseN20 = Number(argValue('--baseline-n20', '10'));
const withBaseline = !process.argv.includes('--no-baseline');
const pairs = readPairs(csv);
await loadCv();
const load0 = loadavg()[0]!;

interface Outcome { pair: Pair; matched: boolean; ms: number }
const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

const queries = new Map<string, Buffer>();
for (const p of pairs) if (!queries.has(p.queryPath)) queries.set(p.queryPath, await browserCompress(readFileSync(p.queryPath)));
const refPaths = [...new Set(pairs.map((p) => p.referencePath))];

// --- ours
const ours = new Map<string, Uint8Array>();
/** references as the recipes before decision 053 enrolled them (without the tilted views): those recipes scan these */
const oursPlain = new Map<string, Uint8Array>();
for (const r of refPaths) {
  ours.set(r, (await enrol(readFileSync(r))).reference);
  oursPlain.set(r, (await withConfig({ tiltLook: 0 }, () => enrol(readFileSync(r)))).reference);
}
const refsOf = (recipe: Recipe) => (recipe.config.tiltLook === 0 ? oursPlain : ours);
// warm-up (JIT) on one pair, not measured
await match(queries.get(pairs[0]!.queryPath)!, [[ours.get(pairs[0]!.referencePath)!]]);
// every recipe (recipes.ts) on every pair, interleaved pair by pair so that all see the same machine load
const cpuUs = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};
interface RecipeRun { recipe: Recipe; out: Outcome[]; cpuUs: number; genuineUs: number }
const runs: RecipeRun[] = RECIPES.map((recipe) => ({ recipe, out: [], cpuUs: 0, genuineUs: 0 }));
for (const p of pairs) {
  for (const r of runs) {
    const c0 = process.cpuUsage();
    const d = await withConfig(r.recipe.config, () => match(queries.get(p.queryPath)!, [[refsOf(r.recipe).get(p.referencePath)!]]));
    const used = cpuUs(c0);
    r.cpuUs += used;
    if (p.label === true) r.genuineUs += used;
    r.out.push({ pair: p, matched: d.matched, ms: d.ms });
  }
}
const oursOut = runs[0]!.out;
const runNamed = (prefix: string): RecipeRun => runs.find((r) => r.recipe.name.startsWith(prefix))!;
const [run047, run026, runBefore026] = [runNamed('before 047'), runNamed('decision 026'), runNamed('before 026')];
// throughput: a pool of two worker threads (this machine's cores) per recipe, fed every pair at once; rounds
// alternate (A B B A) so a change in the machine's load falls on both
const throughput = new Map<string, { scans: number; ms: number }>();
for (const r of [runs[0]!, run047, run047, runs[0]!]) {
  const pool = createMatcherPool({ size: 2, config: r.recipe.config });
  await Promise.all([0, 1].map(() => pool.match(queries.get(pairs[0]!.queryPath)!, [[refsOf(r.recipe).get(pairs[0]!.referencePath)!]])));
  const t0 = performance.now();
  await Promise.all(pairs.map((p) => pool.match(queries.get(p.queryPath)!, [[refsOf(r.recipe).get(p.referencePath)!]])));
  const t = throughput.get(r.recipe.name) ?? { scans: 0, ms: 0 };
  throughput.set(r.recipe.name, { scans: t.scans + pairs.length, ms: t.ms + performance.now() - t0 });
  await pool.close();
}
const scansPerS = (name: string): number => {
  const t = throughput.get(name)!;
  return t.scans / (t.ms / 1000);
};

// --- 1 against 20: a genuine query against its gift + 19 others (identification), and against 20 others only
const genuine = pairs.filter((p) => p.label === true);
const pick = (n: number): Pair[] => genuine.filter((_, i) => i % Math.max(1, Math.floor(genuine.length / n)) === 0).slice(0, n);
function twenty<T>(p: Pair, i: number, refOf: (path: string) => T): { list: T[][]; truth: number } {
  const others = refPaths.filter((r) => r !== p.referencePath);
  const chosen = Array.from({ length: 19 }, (_, k) => others[(i * 7 + k * 3) % others.length]!);
  const truth = i % 20;
  const list = chosen.map((r) => [refOf(r)]);
  list.splice(truth, 0, [refOf(p.referencePath)]);
  return { list, truth };
}
async function run20<T>(
  n: number,
  refOf: (path: string) => T,
  fn: (q: Buffer, refs: T[][]) => Promise<{ matched: boolean; bestIndex: number; ms: number }>,
) {
  const ms: number[] = [];
  let correct = 0, wrong = 0, falseOnImpostors = 0;
  const sel = pick(n);
  for (const [i, p] of sel.entries()) {
    const { list, truth } = twenty(p, i, refOf);
    const q = queries.get(p.queryPath)!;
    const d = await fn(q, list);
    ms.push(d.ms);
    if (d.matched && d.bestIndex === truth) correct++;
    else if (d.matched) wrong++;
    // the same query against the 19 others plus one more other: every acceptance is a false match
    const impostorList = list.filter((_, k) => k !== truth);
    const extra = refPaths.find((r) => r !== p.referencePath && !impostorList.some((l) => l[0] === refOf(r)));
    if (extra) impostorList.push([refOf(extra)]);
    const e = await fn(q, impostorList);
    ms.push(e.ms);
    if (e.matched) falseOnImpostors++;
  }
  return { n: sel.length, median: quantile(ms, 0.5), p95: quantile(ms, 0.95), correct, wrong, falseOnImpostors };
}
const ours20 = await run20(n20, (r) => ours.get(r)!, match);
const prev20 = await withConfig(RECIPE_026, () => run20(n20, (r) => oursPlain.get(r)!, match));

// --- baseline
const baseOut: Outcome[] = [];
let base20: Awaited<ReturnType<typeof run20>> | undefined;
if (withBaseline) {
  const base = new Map<string, Features>();
  for (const r of refPaths) base.set(r, await baselineExtract(readFileSync(r)));
  for (const p of pairs) {
    const d = await baselineMatch(queries.get(p.queryPath)!, [[base.get(p.referencePath)!]]);
    baseOut.push({ pair: p, matched: d.matched, ms: d.ms });
  }
  base20 = await run20(baseN20, (r) => base.get(r)!, baselineMatch);
}
const load1 = loadavg()[0]!;

// --- report
interface Row { kind: string; genuine: number; impostor: number; tmr: number; fmr: number; fm: number; median: number; p95: number }
function rows(out: Outcome[]): Row[] {
  const kinds = [...new Set(out.map((o) => o.pair.kind))].sort();
  return [...kinds, 'overall'].map((kind) => {
    const sel = kind === 'overall' ? out : out.filter((o) => o.pair.kind === kind);
    const g = sel.filter((o) => o.pair.label === true);
    const im = sel.filter((o) => o.pair.label === false);
    const fm = im.filter((o) => o.matched).length;
    return {
      kind,
      genuine: g.length,
      impostor: im.length,
      tmr: g.filter((o) => o.matched).length / Math.max(1, g.length),
      fmr: fm / Math.max(1, im.length),
      fm,
      median: quantile(sel.map((o) => o.ms), 0.5),
      p95: quantile(sel.map((o) => o.ms), 0.95),
    };
  });
}
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ratio = (a: number, b: number | undefined) => (b === undefined || !Number.isFinite(b) ? '' : b === 0 ? (a === 0 ? '(=)' : '(x∞)') : `(x${(a / b).toFixed(2)})`);
const R = rows(oursOut);
const B = withBaseline ? rows(baseOut) : [];
console.log(`gift-photos bench: ${pairs.length} pairs, queries compressed to fit 600x600 at JPEG 0.5; load average ${load0.toFixed(1)} -> ${load1.toFixed(1)} on ${(await import('node:os')).availableParallelism()} cores`);
console.log('figures: ours, then (ratio to the textbook baseline) and the baseline figure');
console.log(`${'kind'.padEnd(14)} pairs  ${'true-match'.padEnd(26)}${'false-match [count]'.padEnd(26)}${'median ms'.padEnd(26)}p95 ms`);
for (const r of R) {
  const b = B.find((x) => x.kind === r.kind);
  const cell = (a: string, rt: string, bb: string) => `${a} ${rt} ${bb}`.padEnd(26);
  console.log(
    `${r.kind.padEnd(14)} ${String(r.genuine + r.impostor).padStart(5)}  ` +
      cell(pct(r.tmr), ratio(r.tmr, b?.tmr), b ? pct(b.tmr) : '') +
      cell(`${pct(r.fmr)}[${r.fm}]`, ratio(r.fmr, b?.fmr), b ? `${pct(b.fmr)}[${b.fm}]` : '') +
      cell(String(r.median), ratio(r.median, b?.median), b ? String(b.median) : '') +
      cell(String(r.p95), ratio(r.p95, b?.p95), b ? String(b.p95) : ''),
  );
}
const line20 = (name: string, x: typeof ours20, b?: typeof ours20) =>
  `${name}: 1-against-20 median ${x.median} ms ${ratio(x.median, b?.median)} p95 ${x.p95} ms ${ratio(x.p95, b?.p95)}; ` +
  `${x.n} genuine queries among 20 gifts: ${x.correct} identified, ${x.wrong} wrong gift; the same queries against 20 other gifts: ${x.falseOnImpostors} false matches`;
console.log(line20('ours', ours20, base20));
console.log(line20('decision 026', prev20));
console.log('');
console.log(`speed of the recipes (recipes.ts), one gift, every pair, interleaved pair by pair; CPU = process.cpuUsage of this process (libvips threads included)`);
const nGenuine = pairs.filter((p) => p.label === true).length;
const before026 = runBefore026.cpuUs / 1000 / pairs.length;
console.log(`${'recipe'.padEnd(36)}${'CPU ms/scan'.padEnd(20)}${'x before 026'.padEnd(14)}${'genuine / other'.padEnd(17)}${'median ms'.padEnd(11)}${'p95 ms'.padEnd(8)}${'true printed / 3D'.padEnd(20)}${'false'.padEnd(7)}same decision as shipped`);
for (const r of runs) {
  const cpu = r.cpuUs / 1000 / pairs.length;
  const ok = (kind: string) => r.out.filter((o) => o.pair.label === true && o.pair.kind === kind && o.matched).length;
  const of = (kind: string) => r.out.filter((o) => o.pair.label === true && o.pair.kind === kind).length;
  const same = r.out.filter((o, i) => o.matched === oursOut[i]!.matched).length;
  console.log(
    `${r.recipe.name.padEnd(36)}${`${cpu.toFixed(1)} (x${(cpu / (run026.cpuUs / 1000 / pairs.length)).toFixed(2)})`.padEnd(20)}` +
      `${`x${(cpu / before026).toFixed(2)}`.padEnd(14)}` +
      `${`${(r.genuineUs / 1000 / nGenuine).toFixed(1)} / ${((r.cpuUs - r.genuineUs) / 1000 / (pairs.length - nGenuine)).toFixed(1)}`.padEnd(17)}` +
      `${String(quantile(r.out.map((o) => o.ms), 0.5)).padEnd(11)}${String(quantile(r.out.map((o) => o.ms), 0.95)).padEnd(8)}` +
      `${`${ok('printed-flat')}/${of('printed-flat')} / ${ok('object-3d')}/${of('object-3d')}`.padEnd(20)}` +
      `${String(r.out.filter((o) => o.pair.label === false && o.matched).length).padEnd(7)}${same}/${pairs.length}`,
  );
}
console.log('(CPU ratios in brackets are to decision 026; genuine / other: CPU ms per scan of genuine pairs and of the rest)');
const [s0, s1] = [scansPerS(runs[0]!.recipe.name), scansPerS(run047.recipe.name)];
console.log(`throughput, a pool of 2 worker threads fed all ${pairs.length} scans at once, 2 rounds each: shipped ${s0.toFixed(1)} scans/s, before 047 (no second look) ${s1.toFixed(1)} scans/s (x${(s0 / s1).toFixed(2)})`);
console.log(`CPU per scan, shipped against before 047 in this run: ${(runs[0]!.cpuUs / 1000 / pairs.length).toFixed(1)} ms against ${(run047.cpuUs / 1000 / pairs.length).toFixed(1)} ms (x${(runs[0]!.cpuUs / run047.cpuUs).toFixed(2)}; issue 29 allows x1.30)`);
if (base20) console.log(line20('baseline', base20));

if (!process.argv.includes('--no-crossval')) {
  console.log('');
  const cv = await crossval({ ...CROSSVAL_DEFAULTS, csv });
  for (const l of cv.lines) console.log(l);
}
if (!process.argv.includes('--no-hardcases')) {
  console.log('');
  const hc = await hardcases({ csv, seed: 15, step: 2, impostors: 2, outDir: join(tmpdir(), 'giftlens-matcher', 'hardcases') });
  for (const l of hc.lines) console.log(l);
}
console.log(`load average at the end ${loadavg()[0]!.toFixed(1)}`);
