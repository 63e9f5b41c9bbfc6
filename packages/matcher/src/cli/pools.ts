/**
 * npm run bench:pools -w @giftlens/matcher [-- --seconds S] [--levels 2,8,16]
 * Decision 023: our worker pool (src/pool.ts) against piscina on the matcher's own workload: a genuine scan
 * (browser-compressed) matched against its gift's reference, C clients each sending the next scan when the last is
 * answered, S seconds per level; one worker per core in both. Prints scans/s, p50 and p99 per level, pools
 * interleaved so both see the same machine load.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { browserCompress } from '../decode.ts';
import { createMatcherPool } from '../pool.ts';
import { argValue } from './dataset.ts';

const seconds = Number(argValue('--seconds', '5'));
const levels = argValue('--levels', '2,8,16')!.split(',').map(Number);
const photos = path.resolve(import.meta.dirname, '../../../../test-fixtures/gift-photos/covers');
const size = availableParallelism();
const query = await browserCompress(readFileSync(path.join(photos, 'photos/001-canon.jpg')));
const referenceImage = readFileSync(path.join(photos, 'reference/001.jpg'));

type Match = (q: Uint8Array, refs: Uint8Array[][]) => Promise<unknown>;
const ours = createMatcherPool({ size });
const piscina = new Piscina({
  filename: new URL('./piscina-worker.mjs', import.meta.url).href,
  minThreads: size,
  maxThreads: size,
  idleTimeout: 60_000,
});
const reference = (await ours.enrol(referenceImage)).reference;
const pools: [string, Match][] = [
  ['ours', (q, refs) => ours.match(q, refs)],
  ['piscina', (q, refs) => piscina.run({ op: 'match', image: new Uint8Array(q), references: refs })],
];

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;

async function run(match: Match, clients: number) {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await match(query, [[reference]]);
        times.push(performance.now() - t0);
      }
    }),
  );
  return { rate: times.length / seconds, p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

// warm-up: both pools' workers load OpenCV and JIT the matcher
for (const [, match] of pools) await run(match, size);
console.log(`bench:pools — ${size} workers, ${seconds} s per level, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('pool      clients  scans/s  p50 ms  p99 ms  load');
for (const clients of levels) {
  for (const [name, match] of pools) {
    const r = await run(match, clients);
    console.log(`${name.padEnd(10)}${String(clients).padEnd(9)}${r.rate.toFixed(1).padEnd(9)}${r.p50.toFixed(0).padEnd(8)}${r.p99.toFixed(0).padEnd(8)}${loadavg()[0]!.toFixed(2)}`);
  }
}
await ours.close();
await piscina.destroy();
