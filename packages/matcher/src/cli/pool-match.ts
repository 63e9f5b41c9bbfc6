/**
 * npm run -s match:pool -w @giftlens/matcher -- --pairs PAIRS.csv [--size N]
 * `npm run match`'s pairs, scanned through the worker pool both ways, interleaved: references cloned with each scan
 * (the dispatch before decision 045) and references by key, cached in the workers (small cache, so some are
 * dropped and sent again). Prints match's JSON line per pair and path ({"reference","query","match","score","path"}),
 * then whether both paths decided every pair alike with the same score; exit code 1 when not. Compare with
 * `npm run match` (the engine in this thread) by reference, query, match and score.
 */
import { readFileSync } from 'node:fs';
import { browserCompress } from '../decode.ts';
import { createMatcherPool } from '../pool.ts';
import { argValue, readPairs } from './dataset.ts';

const csv = argValue('--pairs');
if (!csv) {
  console.error('usage: npm run -s match:pool -- --pairs PAIRS.csv [--size N]');
  process.exit(2);
}
const pairs = readPairs(csv);
// a cache of 4 references per worker: the pairs' references come and go, so misses, drops and resends happen
const pool = createMatcherPool({ size: Number(argValue('--size', '2')), cacheBytes: 4 * 60_000 });
const refs = new Map<string, Promise<Uint8Array | Error>>();
const load = async (keys: string[]) => new Map(await Promise.all(keys.map(async (k) => [k, new Uint8Array((await refs.get(k)) as Uint8Array)] as const)));
let differ = 0;
const lines = await Promise.all(
  pairs.map(async (p) => {
    if (!refs.has(p.referencePath)) {
      refs.set(p.referencePath, pool.enrol(readFileSync(p.referencePath)).then((r) => r.reference, (e: unknown) => e as Error));
    }
    const ref = await refs.get(p.referencePath)!;
    const q = await browserCompress(readFileSync(p.queryPath));
    const scan = async (path: 'clone' | 'keyed') => {
      try {
        if (ref instanceof Error) throw ref;
        const d = await pool.match(q, [[path === 'clone' ? ref : { key: p.referencePath, load }]]);
        return { reference: p.reference, query: p.query, match: d.matched, score: d.score, path };
      } catch (err) {
        const e = err as { code?: string; message?: string };
        return { reference: p.reference, query: p.query, match: false, score: 0, path, error: e.code ?? e.message };
      }
    };
    const [a, b] = await Promise.all([scan('clone'), scan('keyed')]);
    if (a.match !== b.match || a.score !== b.score || a.error !== b.error) differ++;
    return [a, b];
  }),
);
for (const pair of lines) for (const l of pair) console.log(JSON.stringify(l));
const s = pool.stats();
await pool.close();
console.error(
  `${pairs.length} pairs: ${differ === 0 ? 'clone and keyed decided every pair alike, same scores' : `${differ} pair(s) differ between clone and keyed`}` +
    ` (keyed: ${s.hits} hits, ${s.misses} misses, ${s.asked} asked again)`,
);
if (differ > 0) process.exit(1);
