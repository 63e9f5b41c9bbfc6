/**
 * Dev tool: accuracy / CPU of the engine with some CONFIG values overridden, on the whole data set.
 *   CFG='{"querySide":600,"queryChromaLevels":5}' npm run -s sweep -w @giftlens/matcher [-- --pairs PAIRS.csv]
 * Prints query extraction and comparison CPU per scan, true matches per kind at the decision rule, the three lowest
 * genuine inlier counts, the highest impostor count, false matches, and the 3D pairs missed.
 */
import { readFileSync } from 'node:fs';
import { browserCompress } from '../decode.ts';
import { CONFIG } from '../config.ts';
import { compare } from '../engine.ts';
import { extractReference } from '../enrol.ts';
import { accepts } from '../evidence.ts';
import { extractQuery } from '../staged.ts';
import type { Features } from '../features.ts';
import { argValue, readPairs } from './dataset.ts';

Object.assign(CONFIG, JSON.parse(process.env.CFG ?? '{}') as Partial<typeof CONFIG>);
const pairs = readPairs(argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!);
const refs = new Map<string, Features>();
const queries = new Map<string, Features>();
const compressed = new Map<string, Buffer>();
for (const p of pairs) if (!refs.has(p.referencePath)) refs.set(p.referencePath, await extractReference(readFileSync(p.referencePath)));
for (const p of pairs) if (!compressed.has(p.queryPath)) compressed.set(p.queryPath, await browserCompress(readFileSync(p.queryPath)));
let t0 = process.cpuUsage();
for (const [k, b] of compressed) queries.set(k, await extractQuery(b));
const cpu = (since: NodeJS.CpuUsage, n: number): string => {
  const u = process.cpuUsage(since);
  return ((u.user + u.system) / 1000 / n).toFixed(1);
};
const tq = cpu(t0, compressed.size);
t0 = process.cpuUsage();
const res = pairs.map((p) => ({ ...p, ...compare(queries.get(p.queryPath)!, refs.get(p.referencePath)!) }));
const tm = cpu(t0, pairs.length);
const ok = (x: { inliers: number; spread: number }): boolean => accepts(x.inliers, x.spread);
const kinds = [...new Set(pairs.map((p) => p.kind))].map((kind) => {
  const g = res.filter((x) => x.kind === kind && x.label === true);
  const im = res.filter((x) => x.kind === kind && x.label === false);
  const lows = g.map((x) => x.inliers).sort((a, b) => a - b).slice(0, 3).join(',');
  return `${kind} ${g.filter(ok).length}/${g.length} low[${lows}] impostor max ${Math.max(0, ...im.map((x) => x.inliers))} false ${im.filter(ok).length}`;
});
const missed = res.filter((x) => x.label === true && !ok(x)).map((x) => `${x.query}:${x.inliers}`);
console.log(`${process.env.CFG ?? '{}'} | cpu query ${tq} + compare ${tm} ms | ${kinds.join(' | ')} | missed ${missed.join(' ') || '-'}`);
