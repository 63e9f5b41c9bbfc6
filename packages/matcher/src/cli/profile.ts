/**
 * Where a scan's CPU goes, stage by stage (dev tool):
 *   npm run -s profile -w @giftlens/matcher [-- --pairs PAIRS.csv] [--rounds N]
 * Every pair of the data set, the query compressed as the browser does, against its one reference, with the shipped
 * CONFIG; stages timed with process.cpuUsage in this thread (libvips' own threads included): sharp's decode and
 * resize, our grey conversion, the grey ORB, the grey comparison (matching + verification), and, when the engine
 * goes on to them, the chroma channels, the colour ORB and the pooled comparison. Genuine and impostor pairs apart.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import sharp from 'sharp';
import { loadCv } from '../cv.ts';
import { browserCompress, decodeStaged } from '../decode.ts';
import { CONFIG } from '../config.ts';
import { compare, match } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { accepts } from '../evidence.ts';
import { stageQuery } from '../staged.ts';
import { deserialise, layer, serialise } from '../features.ts';
import { argValue, readPairs } from './dataset.ts';

sharp.concurrency(1);
sharp.cache(false);
const pairs = readPairs(argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!);
const rounds = Number(argValue('--rounds', '1'));
await loadCv();
const load0 = loadavg()[0]!;
const queries = new Map<string, Buffer>();
const refs = new Map<string, ReturnType<typeof deserialise>>();
for (const p of pairs) {
  if (!queries.has(p.queryPath)) queries.set(p.queryPath, await browserCompress(readFileSync(p.queryPath)));
  if (!refs.has(p.referencePath)) refs.set(p.referencePath, deserialise((await enrol(readFileSync(p.referencePath))).reference));
}

/**
 * One comparison of these keypoints alone: compare() itself adds the first pass (the base level's keypoints) under
 * CONFIG.firstPass, which would time the first pass again inside every stage. Still compare()'s exact evidence, not
 * match()'s shortcut that skips a verification with too few correspondences, and for the pooled stage compare()
 * tries the grey layer too: the colour stages read high.
 */
const compareAlone = (q: Parameters<typeof compare>[0], r: Parameters<typeof compare>[1]) => {
  const firstPass = CONFIG.firstPass;
  CONFIG.firstPass = false;
  try {
    return compare(q, r);
  } finally {
    CONFIG.firstPass = firstPass;
  }
};

const us = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};
type Stage = 'sharp decode+resize' | 'decode total' | 'decode + grey ORB' | 'first pass compare' | 'upper levels ORB' | 'grey compare' | 'chroma channels + colour ORB' | 'pooled compare' | 'scan (match)';
const sums = { genuine: new Map<Stage, number>(), impostor: new Map<Stage, number>() };
const counts = { genuine: 0, impostor: 0, colour: { genuine: 0, impostor: 0 } };
const add = (side: 'genuine' | 'impostor', s: Stage, v: number): void => void sums[side].set(s, (sums[side].get(s) ?? 0) + v);

const blobs = new Map([...refs].map(([k, f]) => [k, serialise(f)]));
await match(queries.get(pairs[0]!.queryPath)!, [[blobs.get(pairs[0]!.referencePath)!]]);
for (let round = 0; round < rounds; round++) {
  for (const p of pairs) {
    if (p.label === undefined) continue;
    const side = p.label ? 'genuine' : 'impostor';
    counts[side]++;
    const q = queries.get(p.queryPath)!;
    const ref = refs.get(p.referencePath)!;
    let c = process.cpuUsage();
    await sharp(q).rotate().resize({ width: CONFIG.querySide, height: CONFIG.querySide, fit: 'inside', withoutEnlargement: true }).raw().toBuffer();
    add(side, 'sharp decode+resize', us(c));
    c = process.cpuUsage();
    await decodeStaged(q, CONFIG.querySide);
    add(side, 'decode total', us(c));
    c = process.cpuUsage();
    const staged = await stageQuery(q);
    const stagedUs = us(c);
    if (staged.first) {
      c = process.cpuUsage();
      compareAlone(staged.first, layer(ref, 0));
      add(side, 'first pass compare', us(c));
    }
    c = process.cpuUsage();
    const grey = staged.grey();
    add(side, 'upper levels ORB', us(c));
    c = process.cpuUsage();
    const g = compareAlone(grey, layer(ref, 0));
    add(side, 'grey compare', us(c));
    if (!accepts(g.inliers, g.spread) && g.inliers >= CONFIG.colourGate) {
      counts.colour[side]++;
      c = process.cpuUsage();
      const all = staged.all();
      add(side, 'chroma channels + colour ORB', us(c));
      c = process.cpuUsage();
      compareAlone(all, ref);
      add(side, 'pooled compare', us(c));
    }
    add(side, 'decode + grey ORB', stagedUs);
    // ('decode + grey ORB' is the base level alone with a first pass; 'upper levels ORB' the rest)
    c = process.cpuUsage();
    await match(q, [[blobs.get(p.referencePath)!]]);
    add(side, 'scan (match)', us(c));
  }
}
console.log(`stage CPU per scan, ms (this thread + libvips, sharp.concurrency 1); ${pairs.length} pairs x ${rounds}; load average ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
console.log(`('decode + grey ORB' = decode + grey ORB of stageQuery minus nothing: subtract 'decode total' for the ORB alone; colour stages averaged over all scans of the side)`);
for (const side of ['genuine', 'impostor'] as const) {
  const n = counts[side];
  const cells = [...sums[side]].map(([s, v]) => `${s} ${(v / 1000 / n).toFixed(2)}`);
  console.log(`${side.padEnd(9)} n=${n} colour tried ${counts.colour[side]}: ${cells.join(' | ')}`);
}
