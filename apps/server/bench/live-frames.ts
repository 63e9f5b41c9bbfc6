/**
 * npm run bench:live [-- --seconds S] [--explicit N] [--phones P] [--rounds R]
 *
 * What live frames cost Take Photo at the matcher (decision 029), in one process on this machine's cores:
 *   - explicit: N clients sending explicit scans (an impostor photo, so every scan runs to the end) back to back;
 *   - + live (priority): the same, plus P phones each sending a live frame every LIVE_SCAN.intervalMs through
 *     `matchLive` (only on an idle worker, refused when the matcher has any queue);
 *   - + live (no priority): the same P phones through `match`, as if frames were explicit scans.
 * The three run in turn, R rounds of S seconds each, so the machine's load falls on all alike. Per setting: explicit
 * scans/s, p50/p95/p99 ms, how many were refused (503), and the live frames matched and refused. A refused explicit
 * client waits 50 ms and tries again. Then the cost of one live-frame budget check (two limits) in memory and in Redis
 * (REDIS_URL or redis://127.0.0.1:6379, skipped when unreachable). Prints the load average; never fails.
 */
import { LIVE_SCAN } from '@giftlens/contract/constants';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { createMatcherRecogniser, RecogniserBusyError, type Recogniser } from '../src/adapters/recogniser.ts';
import { memoryWindow, redisWindow, type SlidingWindow } from '../src/adapters/sliding-window.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return Number(i >= 0 && args[i + 1] ? args[i + 1] : fallback);
};
const SECONDS = option('--seconds', '6');
const EXPLICIT = option('--explicit', '4');
const PHONES = option('--phones', '8');
const ROUNDS = option('--rounds', '2');
const PHOTOS = path.resolve(import.meta.dirname, '../../../test-fixtures/gift-photos/covers');

const asBrowserSends = (file: string) =>
  sharp(readFileSync(path.join(PHOTOS, file)))
    .rotate()
    .resize(600, 600, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 50 })
    .toBuffer();

type Setting = 'explicit' | '+ live (priority)' | '+ live (no priority)';
interface Figures {
  ms: number[];
  refused: number;
  liveMatched: number;
  liveRefused: number;
  seconds: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};

async function round(recogniser: Recogniser, setting: Setting, query: Buffer, refs: Uint8Array[][], f: Figures) {
  const until = performance.now() + SECONDS * 1000;
  const explicit = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        await recogniser.match(query, refs);
        f.ms.push(performance.now() - t0);
      } catch (err) {
        if (!(err instanceof RecogniserBusyError)) throw err;
        f.refused++;
        await sleep(50);
      }
    }
  };
  const phone = async (offset: number) => {
    await sleep(offset);
    while (performance.now() < until) {
      const next = performance.now() + LIVE_SCAN.intervalMs;
      try {
        await (setting === '+ live (priority)' ? recogniser.matchLive(query, refs) : recogniser.match(query, refs));
        f.liveMatched++;
      } catch (err) {
        if (!(err instanceof RecogniserBusyError)) throw err;
        f.liveRefused++;
      }
      await sleep(Math.max(0, next - performance.now()));
    }
  };
  const phones = setting === 'explicit' ? [] : Array.from({ length: PHONES }, (_, i) => phone((i * LIVE_SCAN.intervalMs) / PHONES));
  await Promise.all([...Array.from({ length: EXPLICIT }, explicit), ...phones]);
  f.seconds += SECONDS;
}

async function windowCost(name: string, w: SlidingWindow) {
  const n = 5000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const ip = `ip:${i % 500}`;
    await w.take(
      [
        { key: `gift:${i % 50}`, max: LIVE_SCAN.perTarget, windowMs: LIVE_SCAN.windowMs },
        { key: ip, max: LIVE_SCAN.perClient, windowMs: LIVE_SCAN.windowMs },
      ],
      Date.now(),
    );
  }
  console.log(`budget check (2 limits), ${name}: ${(((performance.now() - t0) / n) * 1000).toFixed(0)} µs per frame`);
}

async function main() {
  const cores = availableParallelism();
  const recogniser = createMatcherRecogniser({ eager: true });
  const reference = (await recogniser.enrol(readFileSync(path.join(PHOTOS, 'reference/001.jpg')))).reference;
  const impostor = await asBrowserSends('photos/002-canon.jpg');
  const refs = [[reference]];
  for (let i = 0; i < 10; i++) await recogniser.match(impostor, refs); // warm-up
  const settings: Setting[] = ['explicit', '+ live (priority)', '+ live (no priority)'];
  const figures = new Map<Setting, Figures>(settings.map((s) => [s, { ms: [], refused: 0, liveMatched: 0, liveRefused: 0, seconds: 0 }]));
  console.log(
    `${cores} cores, ${EXPLICIT} explicit clients, ${PHONES} phones at ${LIVE_SCAN.intervalMs} ms, ${ROUNDS}×${SECONDS} s per setting; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  for (let r = 0; r < ROUNDS; r++) for (const s of settings) await round(recogniser, s, impostor, refs, figures.get(s)!);
  const base = figures.get('explicit')!;
  const baseRate = base.ms.length / base.seconds;
  for (const s of settings) {
    const f = figures.get(s)!;
    const rate = f.ms.length / f.seconds;
    console.log(
      `${s.padEnd(21)} explicit ${rate.toFixed(1)}/s (×${(rate / baseRate).toFixed(2)}), p50 ${quantile(f.ms, 0.5).toFixed(0)} ms, ` +
        `p95 ${quantile(f.ms, 0.95).toFixed(0)} ms (×${(quantile(f.ms, 0.95) / quantile(base.ms, 0.95)).toFixed(2)}), ` +
        `p99 ${quantile(f.ms, 0.99).toFixed(0)} ms, refused ${f.refused}; live matched ${(f.liveMatched / f.seconds).toFixed(1)}/s, refused ${f.liveRefused}`,
    );
  }
  await recogniser.close();

  await windowCost('memory', memoryWindow('bench:'));
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', { connectTimeout: 1000, maxRetriesPerRequest: 0, lazyConnect: true });
  try {
    await redis.connect();
    await windowCost('Redis (loopback)', redisWindow(redis, `bench:${randomBytes(4).toString('hex')}:`));
  } catch (err) {
    console.log(`budget check, Redis: skipped (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    redis.disconnect();
  }
  console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

await main();
