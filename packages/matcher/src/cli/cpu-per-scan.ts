/**
 * npm run -s cpu -w @giftlens/matcher -- --pairs PAIRS.csv [--every 1] [--hard DIR] [--hard-limit N] [--rounds 2]
 *
 * CPU per scan of the shipped recipe against the recipe before decision 047 (no second look, no zoomed look: the issue's
 * "today"), the one before decision 052 (no zoomed look) and the one before decision 053 (no tilted look), in one run,
 * interleaved scan by scan so that all see the same machine load (the budget: at most 30% more than before 047). Each
 * recipe scans references as it enrolled them: before 053 without their tilted views (smaller blobs to decode).
 * - every pair of the data set (one gift per scan, as the bench);
 * - and the hard cases of `npm run -s phonecases` found in DIR (their JPEGs, as the browser sent them), each against
 *   its own reference and against one other: the frames where the second and zoomed looks are taken most.
 * Then scans/s on a pool of 2 worker threads for the shipped recipe and the one before 047, fed every data-set pair
 * at once (rounds A B B A).
 * CPU = process.cpuUsage of this process (libvips threads included).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCv } from '../cv.ts';
import { browserCompress } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { createMatcherPool } from '../pool.ts';
import { argValue, readPairs } from './dataset.ts';
import { giftOf } from './evidence.ts';
import { RECIPES, withConfig, type Recipe } from './recipes.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const hardDir = argValue('--hard', join(tmpdir(), 'giftlens-matcher', 'phonecases-29'))!;
const hardLimit = Number(argValue('--hard-limit', '120'));
const rounds = Number(argValue('--rounds', '2'));
/** every n-th data-set pair only (1: all 442) */
const every = Number(argValue('--every', '1'));
const load0 = loadavg()[0]!;
await loadCv();
const shipped = RECIPES.find((r) => r.name === 'shipped')!;
const before = RECIPES.find((r) => r.name.startsWith('before 047'))!;
const before052 = RECIPES.find((r) => r.name.startsWith('before 052'))!;
const before053 = RECIPES.find((r) => r.name.startsWith('before 053'))!;
const before056 = RECIPES.find((r) => r.name.startsWith('before 056'))!;
const ALL = [before, before052, before053, before056, shipped];
/** the order each scan runs the recipes in: rotated scan by scan, so none always runs on a warm cache */
const ORDERS = ALL.map((_, k) => ALL.map((__, j) => ALL[(j + k) % ALL.length]!));

const pairs = readPairs(csv);
const refPaths = [...new Set(pairs.map((p) => p.referencePath))].sort();
const refs = new Map<string, Uint8Array>();
const plainRefs = new Map<string, Uint8Array>();
for (const r of refPaths) {
  refs.set(r, (await enrol(readFileSync(r))).reference);
  plainRefs.set(r, (await withConfig({ tiltLook: 0 }, () => enrol(readFileSync(r)))).reference);
}
/** a reference as `recipe` enrolled it (without tilted views before decision 053) */
const blob = (recipe: Recipe, path: string): Uint8Array => (recipe.config.tiltLook === 0 ? plainRefs : refs).get(path)!;
const refOf = new Map(refPaths.map((r) => [giftOf(r), r]));

interface Scan { query: Buffer; ref: string; genuine: boolean; set: string }
const scans: Scan[] = [];
/** hard cases scanned against several gifts at once; the first is the scene's own */
const several: { query: Buffer; gifts: string[] }[] = [];
// the data set's pairs, told apart: a photo of the gift scanned, and a photo of another gift (what a frame without the
// gift costs: every look runs on it)
for (const p of pairs.filter((_, i) => i % every === 0)) {
  scans.push({ query: await browserCompress(readFileSync(p.queryPath)), ref: p.referencePath, genuine: p.label === true, set: p.label === true ? 'data set, its gift' : 'data set, another gift' });
}
let hardFiles: string[] = [];
try {
  hardFiles = readdirSync(hardDir).filter((f) => f.endsWith('.jpg')).sort();
} catch {
  console.log(`no hard cases in ${hardDir} (run npm run -s phonecases first): data set only`);
}
// an even sample over conditions and strengths
const stride = Math.max(1, Math.floor(hardFiles.length / hardLimit));
for (const [i, f] of hardFiles.entries()) {
  if (i % stride !== 0) continue;
  const name = f.split('--')[2]!.replace(/\.jpg$/, '');
  const gift = name.endsWith('-object') ? `object:${name.slice(0, 2)}` : `cover:${name.slice(0, 3)}`;
  const own = refOf.get(gift);
  if (!own) continue;
  // another cover: a hard case's background may be a photo of an object, which then really is in the frame
  const covers = refPaths.filter((r) => r.includes('/covers/') && r !== own);
  const other = covers[(refPaths.indexOf(own) + 11) % covers.length]!;
  const query = readFileSync(join(hardDir, f));
  scans.push({ query, ref: own, genuine: true, set: 'hard cases' }, { query, ref: other, genuine: false, set: 'hard cases' });
  // the same scene in one scan of 7 gifts (a recipient's e-mail with several): its own and 6 other covers
  several.push({ query, gifts: [own, ...Array.from({ length: 6 }, (_, k) => covers[(refPaths.indexOf(own) + 5 + 7 * k) % covers.length]!)] });
}

await match(scans[0]!.query, [[refs.get(scans[0]!.ref)!]]); // warm-up, not measured
const cpu = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
type Tally = Record<string, { ms: number; n: number; matched: number; genuine: number; falseMatches: number }>;
const tally: Record<string, Tally> = Object.fromEntries(ALL.map((r) => [r.name, {}]));
const report = () => {
  console.log(`CPU per scan, interleaved scan by scan; load average ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} now`);
  console.log('| scans | recipe | CPU ms per scan | ratio | true matches | false matches |');
  console.log('|---|---|---|---|---|---|');
  for (const set of ['data set, its gift', 'data set, another gift', 'hard cases', 'all']) {
    const b = tally[before.name]![set];
    if (!b) continue;
    for (const r of ALL) {
      const t = tally[r.name]![set]!;
      console.log(`| ${set} (${t.n}) | ${r.name} | ${(t.ms / t.n).toFixed(1)} | x${(t.ms / b.ms).toFixed(2)} | ${t.matched}/${t.genuine} | ${t.falseMatches} |`);
    }
  }
};
for (const [i, s] of scans.entries()) {
  if (i % 100 === 99) report();
  for (const r of ORDERS[i % ORDERS.length]!) {
    const c0 = process.cpuUsage();
    const d = await withConfig(r.config, () => match(s.query, [[blob(r, s.ref)]]));
    const ms = cpu(c0);
    for (const key of [s.set, 'all']) {
      const t = (tally[r.name]![key] ??= { ms: 0, n: 0, matched: 0, genuine: 0, falseMatches: 0 });
      t.ms += ms;
      t.n++;
      if (s.genuine) t.genuine++;
      if (s.genuine && d.matched) t.matched++;
      if (!s.genuine && d.matched) t.falseMatches++;
    }
  }
}
report();

// several gifts in one scan: the shortlist, then each look over every candidate; the right one must be found, never
// another (the order of the gifts is rotated so the own one is not always first)
if (several.length) {
  const t: Record<string, { ms: number; right: number; wrong: number }> = {};
  for (const [i, s] of several.entries()) {
    const order = s.gifts.map((_, k) => s.gifts[(k + i) % s.gifts.length]!);
    for (const r of ORDERS[i % ORDERS.length]!) {
      const c0 = process.cpuUsage();
      const d = await withConfig(r.config, () => match(s.query, order.map((g) => [blob(r, g)])));
      const x = (t[r.name] ??= { ms: 0, right: 0, wrong: 0 });
      x.ms += cpu(c0);
      if (d.matched && order[d.bestIndex] === s.gifts[0]) x.right++;
      if (d.matched && order[d.bestIndex] !== s.gifts[0]) x.wrong++;
    }
  }
  console.log(`\nthe hard cases in one scan of 7 gifts each (their own and 6 other covers), interleaved; load average ${loadavg()[0]!.toFixed(1)}`);
  console.log('| recipe | CPU ms per scan | ratio | the right gift | another gift |');
  console.log('|---|---|---|---|---|');
  for (const r of ALL) {
    const x = t[r.name]!;
    console.log(`| ${r.name} | ${(x.ms / several.length).toFixed(1)} | x${(x.ms / t[before.name]!.ms).toFixed(2)} | ${x.right}/${several.length} | ${x.wrong} |`);
  }
}

// throughput: a pool of two worker threads per recipe, fed every data-set pair at once; rounds A B B A
const dataset = scans.filter((s) => s.set.startsWith('data set'));
const through = new Map<string, { scans: number; ms: number }>();
for (let k = 0; k < rounds; k++) {
  for (const r of k % 2 ? [before, shipped] : [shipped, before]) {
    const pool = createMatcherPool({ size: 2, config: r.config });
    await Promise.all([0, 1].map(() => pool.match(dataset[0]!.query, [[blob(r, dataset[0]!.ref)]])));
    const t0 = performance.now();
    await Promise.all(dataset.map((s) => pool.match(s.query, [[blob(r, s.ref)]])));
    const t = through.get(r.name) ?? { scans: 0, ms: 0 };
    through.set(r.name, { scans: t.scans + dataset.length, ms: t.ms + performance.now() - t0 });
    await pool.close();
  }
}
const perS = (name: string) => (through.get(name)!.scans / through.get(name)!.ms) * 1000;
console.log(
  `throughput, a pool of 2 worker threads fed all ${dataset.length} data-set scans at once, ${rounds} rounds each: shipped ${perS(shipped.name).toFixed(1)} scans/s, ` +
    `before 047 ${perS(before.name).toFixed(1)} scans/s (x${(perS(shipped.name) / perS(before.name)).toFixed(2)}); load average ${loadavg()[0]!.toFixed(1)} at the end`,
);
