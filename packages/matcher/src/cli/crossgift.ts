/**
 * npm run -s crossgift -w @giftlens/matcher [-- --pairs PAIRS.csv --top 15]
 * The wider impostor check: `pairs.csv` pairs each genuine photo with one impostor reference; this scans every
 * genuine photo against every *other* reference of the data set (about 12,000 comparisons) with the shipped engine's
 * whole decision (match(): every look, the whole-gift check of decision 056) and prints the highest inlier counts,
 * marking those the engine accepts. Some accepted ones are genuine content (a phone photo that also shows a
 * neighbouring cover) and must be checked by eye; the others are false matches.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { browserCompress } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { argValue, readPairs } from './dataset.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const top = Number(argValue('--top', '15'));
const pairs = readPairs(csv);
const refPaths = [...new Set(pairs.map((p) => p.referencePath))];
const genuine = pairs.filter((p) => p.label === true);
const refs = new Map<string, Uint8Array>();
for (const r of refPaths) refs.set(r, (await enrol(readFileSync(r))).reference);

const results: { query: string; reference: string; inliers: number; vetted: boolean; accepted: boolean }[] = [];
for (const p of genuine) {
  const q = await browserCompress(readFileSync(p.queryPath));
  for (const r of refPaths) {
    if (r === p.referencePath) continue;
    const d = await match(q, [[refs.get(r)!]]);
    results.push({ query: p.query, reference: r, inliers: d.inliers, vetted: d.vetted, accepted: d.matched });
  }
}
results.sort((a, b) => b.inliers - a.inliers);
const accepted = results.filter((r) => r.accepted);
console.log(`cross-gift: ${genuine.length} genuine photos x ${refPaths.length - 1} other references = ${results.length} comparisons; accepted ${accepted.length}`);
for (const r of results.slice(0, Math.max(top, accepted.length))) {
  console.log(`${r.accepted ? 'ACCEPTED' : '        '} ${String(r.inliers).padStart(4)} inliers${r.vetted ? ', whole-gift check passed' : ''}  ${r.query}  vs  ${basename(r.reference)} (${r.reference.includes('/objects/') ? 'object' : 'cover'})`);
}
