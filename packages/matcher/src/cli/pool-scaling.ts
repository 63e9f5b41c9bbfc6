/**
 * npm run bench:pool [-- --seconds S] [--rounds R] [--sizes 1,2,4] [--gifts G] [--photos P] [--clients-per-worker C]
 *
 * Decision 045: how far one process's matcher pool scales, and what bounds it. A genuine scan
 * (browser-compressed) matched against G candidate gifts of P enrolled references each (default 1 × 3, the direct
 * flow; `--gifts 20 --photos 3` is a recipient's worst case), C clients per worker each sending the next scan when
 * the last is answered, S seconds per measure, at pool sizes 1, 2, 4, … up to this machine's cores
 * (os.availableParallelism(); `--sizes` to choose), each size measured R rounds with both dispatch paths interleaved
 * (A B B A …) so both see the same machine load:
 *   - clone: references as plain bytes, structured-cloned into the worker with every scan (the dispatch before 045);
 *   - keyed: references by key, kept in the workers (loaded once per worker, then only the key travels).
 * Per size and path: scans/s (median of the rounds, and the spread), the speed-up over size 1, and the main thread's
 * CPU per scan: read from /proc (the main thread's own run time, Linux), so it holds on a loaded machine where the
 * wall clock does not, with the pool's own share (postMessage and answers, wall clock) apart.
 *
 * First, where a scan's CPU goes, one scan at a time in this thread: the matcher's JavaScript/WebAssembly (a worker
 * thread's share) and the process's other threads (libuv's threadpool, where sharp decodes and resizes the photo,
 * and V8's helpers). One process's ceilings follow: its dispatching thread saturates at 1000 / main ms per scan, its
 * threadpool (shared by every worker: UV_THREADPOOL_SIZE, default 4) at threads × 1000 / threadpool ms per scan.
 * The benchmark runs itself with UV_THREADPOOL_SIZE = cores + 4 unless it is set (`--threadpool N` to choose).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { browserCompress } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { createMatcherPool, type MatcherPool, type ReferenceInput, threadpoolSize, threadpoolWanted } from '../pool.ts';
import { argValue } from './dataset.ts';

// libuv reads UV_THREADPOOL_SIZE when the process starts: run again with it set
const wantedThreads = argValue('--threadpool') ?? String(threadpoolWanted(availableParallelism()));
if (process.env.UV_THREADPOOL_SIZE !== wantedThreads) {
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, UV_THREADPOOL_SIZE: wantedThreads },
  });
  process.exit(child.status ?? 1);
}

const seconds = Number(argValue('--seconds', '4'));
const rounds = Number(argValue('--rounds', '2'));
const gifts = Number(argValue('--gifts', '1'));
const photosPerGift = Number(argValue('--photos', '3'));
const perWorker = Number(argValue('--clients-per-worker', '2'));
const cores = availableParallelism();
const defaultSizes: number[] = [];
for (let n = 1; n < cores; n *= 2) defaultSizes.push(n);
defaultSizes.push(cores);
const sizes = argValue('--sizes') ? argValue('--sizes')!.split(',').map(Number) : defaultSizes;

const fixtures = path.resolve(import.meta.dirname, '../../../../test-fixtures/gift-photos/covers');
const query = await browserCompress(readFileSync(path.join(fixtures, 'photos/001-canon.jpg')));
const images = ['reference/001.jpg', 'reference/002.jpg', 'photos/001-droid.jpg', 'photos/002-canon.jpg'].map((f) => readFileSync(path.join(fixtures, f)));

/** A thread's CPU time so far, ns (Linux: its schedstat), or undefined elsewhere; the main thread by default. */
function mainThreadNs(tid = process.pid): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}
/** CPU time of every thread of this process but the main one, ns (no worker runs while it is read). */
const otherThreadsNs = (): number =>
  readdirSync('/proc/self/task')
    .filter((t) => t !== String(process.pid))
    .reduce((a, t) => a + (mainThreadNs(Number(t)) ?? 0), 0);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))]!;
const median = (xs: number[]) => quantile(xs, 0.5);

// the references: gift 0's first is the genuine one; the rest are other photos (each its own key)
const enrolPool = createMatcherPool({ size: 1 });
const enrolled = await Promise.all(images.map(async (img) => (await enrolPool.enrol(img)).reference));
await enrolPool.close();
const bytes: Uint8Array[][] = Array.from({ length: gifts }, (_, g) =>
  // each its own buffer, as each row read from the database is (structured clone copies a shared buffer once)
  Array.from({ length: photosPerGift }, (_, p) => new Uint8Array(enrolled[(g * photosPerGift + p) % enrolled.length]!)),
);
const byKey = new Map<string, Uint8Array>();
const keyed: ReferenceInput[][] = bytes.map((gift, g) =>
  gift.map((b, p) => {
    const key = `photo-${g}-${p}`;
    byKey.set(key, b);
    // the loader gives fresh copies, as a database read would: the pool transfers them
    return { key, load: (keys: string[]) => Promise.resolve(new Map(keys.map((k) => [k, new Uint8Array(byKey.get(k)!)]))) };
  }),
);
const refBytes = bytes.flat().reduce((a, b) => a + b.byteLength, 0);

type Path = 'clone' | 'keyed';
const referencesOf = (p: Path): ReferenceInput[][] => (p === 'clone' ? bytes : keyed);

interface Measure {
  rate: number;
  p50: number;
  p99: number;
  /** main thread CPU ms per scan (all of it), and the pool's postMessage + answer handling */
  mainMs: number;
  poolMs: number;
}

async function measure(pool: MatcherPool, p: Path, clients: number): Promise<Measure> {
  const refs = referencesOf(p);
  const times: number[] = [];
  const s0 = pool.stats();
  const c0 = mainThreadNs();
  const e0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await pool.match(query, refs);
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  const c1 = mainThreadNs();
  const elu = performance.eventLoopUtilization(e0);
  const s1 = pool.stats();
  const n = times.length;
  const mainMs = c0 !== undefined && c1 !== undefined ? (c1 - c0) / 1e6 / n : elu.active / n;
  return {
    rate: (n * 1000) / wall,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    mainMs,
    poolMs: (s1.postMs - s0.postMs + s1.answerMs - s0.answerMs) / n,
  };
}

const fmt = (x: number, d = 1) => x.toFixed(d);

/** One scan at a time in this thread: ms of this thread and of the other threads (the threadpool) per scan. */
async function breakdown(): Promise<{ js: number; pool: number }[]> {
  if (mainThreadNs() === undefined) return [];
  const ref = (await enrol(images[0]!)).reference;
  const refs = bytes.map((gift) => gift.map(() => ref));
  for (let i = 0; i < 10; i++) await match(query, refs);
  const out: { js: number; pool: number }[] = [];
  for (let r = 0; r < 3; r++) {
    const [m0, o0] = [mainThreadNs()!, otherThreadsNs()];
    const n = 40;
    for (let i = 0; i < n; i++) await match(query, refs);
    out.push({ js: (mainThreadNs()! - m0) / 1e6 / n, pool: (otherThreadsNs() - o0) / 1e6 / n });
  }
  return out;
}

const spread = (xs: number[], d = 1) => `${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}`;

console.log(
  `bench:pool — ${cores} cores, sizes ${sizes.join(',')}, ${gifts} gift(s) × ${photosPerGift} reference(s) (${(refBytes / 1024).toFixed(0)} KB of references, photo ${(query.byteLength / 1024).toFixed(0)} KB), ` +
    `${perWorker} clients per worker, ${seconds} s × ${rounds} rounds per path, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(`main thread CPU: ${mainThreadNs() === undefined ? 'event-loop active time (no /proc here)' : "the main thread's run time (/proc schedstat)"}; libuv threadpool: ${threadpoolSize()} threads`);
const costs = await breakdown();
if (costs.length > 0) {
  console.log(
    `a scan's CPU, one at a time in one thread (3 rounds): matcher thread ${fmt(median(costs.map((c) => c.js)), 2)} ms (${spread(costs.map((c) => c.js), 2)}), ` +
      `other threads (libuv threadpool: sharp's decode and resize; V8 helpers) ${fmt(median(costs.map((c) => c.pool)), 2)} ms (${spread(costs.map((c) => c.pool), 2)})`,
  );
}
/**
 * The dispatching thread's part alone: main-thread CPU per postMessage of a scan as each path sends it (the photo
 * copied and transferred; the references cloned, or their keys), to a worker that drops what it gets. Rounds
 * interleaved; µs per scan, median and spread.
 */
async function dispatchCost(): Promise<Record<Path, number[]>> {
  const sink = new Worker("require('node:worker_threads').parentPort.on('message', () => {})", { eval: true });
  const keys = bytes.map((gift, g) => gift.map((_, p) => `photo-${g}-${p}`));
  const out: Record<Path, number[]> = { clone: [], keyed: [] };
  const n = 400;
  for (let r = 0; r < 5; r++) {
    for (const p of (r % 2 === 0 ? ['clone', 'keyed'] : ['keyed', 'clone']) as Path[]) {
      const c0 = mainThreadNs() ?? performance.now() * 1e6;
      for (let i = 0; i < n; i++) {
        const image = new Uint8Array(query);
        sink.postMessage({ id: i, op: 'match', image, references: p === 'clone' ? bytes : keys }, [image.buffer]);
      }
      out[p].push(((mainThreadNs() ?? performance.now() * 1e6) - c0) / 1e3 / n);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await sink.terminate();
  return out;
}
const posted = await dispatchCost();
console.log(
  `postMessage per scan on the main thread (CPU, 5 rounds × 400): clone ${fmt(median(posted.clone), 0)} µs (${spread(posted.clone, 0)}), keyed ${fmt(median(posted.keyed), 0)} µs (${spread(posted.keyed, 0)})`,
);

console.log('size path   scans/s (spread)      ×size1  p50 ms  p99 ms  main ms/scan (spread)  pool ms/scan  ceiling scans/s  load');
const results = new Map<string, Measure[]>();
for (const size of sizes) {
  const pool = createMatcherPool({ size });
  const clients = size * perWorker;
  // warm-up: every worker loads OpenCV, JITs the matcher and (keyed) receives the references once
  await measure(pool, 'keyed', clients).catch(() => undefined);
  await Promise.all(Array.from({ length: clients }, () => pool.match(query, referencesOf('clone'))));
  const order: Path[] = [];
  for (let r = 0; r < rounds; r++) order.push(...((r % 2 === 0 ? ['clone', 'keyed'] : ['keyed', 'clone']) as Path[]));
  for (const p of order) {
    const m = await measure(pool, p, clients);
    results.set(`${size}:${p}`, [...(results.get(`${size}:${p}`) ?? []), m]);
  }
  await pool.close();
  for (const p of ['clone', 'keyed'] as Path[]) {
    const ms = results.get(`${size}:${p}`)!;
    const base = median(results.get(`1:${p}`)?.map((m) => m.rate) ?? [NaN]);
    const rate = median(ms.map((m) => m.rate));
    const main = median(ms.map((m) => m.mainMs));
    console.log(
      `${String(size).padEnd(5)}${p.padEnd(7)}${`${fmt(rate)} (${spread(ms.map((m) => m.rate))})`.padEnd(22)}${`×${fmt(rate / base, 2)}`.padEnd(8)}` +
        `${fmt(median(ms.map((m) => m.p50)), 0).padEnd(8)}${fmt(median(ms.map((m) => m.p99)), 0).padEnd(8)}` +
        `${`${fmt(main, 3)} (${spread(ms.map((m) => m.mainMs), 3)})`.padEnd(23)}${fmt(median(ms.map((m) => m.poolMs)), 3).padEnd(14)}` +
        `${fmt(1000 / main, 0).padEnd(17)}${loadavg()[0]!.toFixed(2)}`,
    );
  }
}
const all = (p: Path) => sizes.flatMap((s) => results.get(`${s}:${p}`)!.map((m) => m.mainMs));
const [clone, keyedMs] = [median(all('clone')), median(all('keyed'))];
console.log(
  `main thread per scan, all sizes: clone ${fmt(clone, 3)} ms (ceiling ${fmt(1000 / clone, 0)} scans/s), keyed ${fmt(keyedMs, 3)} ms (ceiling ${fmt(1000 / keyedMs, 0)} scans/s): ×${fmt(clone / keyedMs, 2)}`,
);
if (costs.length > 0) {
  const tp = median(costs.map((c) => c.pool));
  console.log(
    `threadpool per scan ${fmt(tp, 2)} ms: ceiling ${fmt((4 * 1000) / tp, 0)} scans/s at libuv's default 4 threads, ${fmt((threadpoolSize() * 1000) / tp, 0)} at this run's ${threadpoolSize()}`,
  );
}
