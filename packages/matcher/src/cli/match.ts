/**
 * npm run -s match -- --pairs PAIRS.csv
 * For each pair: enrol the reference, compress the query as the recipient's browser does (fit 600x600, JPEG 0.5),
 * scan it against the reference and print {"reference","query","match","score","ms"} as one JSON line.
 * ms is the scan's time (query decoding and extraction included), in this thread.
 */
import { readFileSync } from 'node:fs';
import { browserCompress } from '../decode.ts';
import { enrol, match } from '../engine.ts';
import { argValue, readPairs } from './dataset.ts';

const csv = argValue('--pairs');
if (!csv) {
  console.error('usage: npm run -s match -- --pairs PAIRS.csv');
  process.exit(2);
}
const pairs = readPairs(csv);
const refs = new Map<string, Uint8Array | Error>();
let failures = 0;
for (const p of pairs) {
  try {
    let ref = refs.get(p.referencePath);
    if (!ref) {
      ref = await enrol(readFileSync(p.referencePath)).then((r) => r.reference, (e: unknown) => e as Error);
      refs.set(p.referencePath, ref);
    }
    if (ref instanceof Error) throw ref;
    const q = await browserCompress(readFileSync(p.queryPath));
    const d = await match(q, [[ref]]);
    console.log(JSON.stringify({ reference: p.reference, query: p.query, match: d.matched, score: d.score, ms: d.ms }));
  } catch (err) {
    failures++;
    const e = err as { code?: string; message?: string };
    console.log(JSON.stringify({ reference: p.reference, query: p.query, match: false, score: 0, ms: 0, error: e.code ?? e.message }));
  }
}
if (failures) console.error(`${failures} pair(s) could not be scanned`);
