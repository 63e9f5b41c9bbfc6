import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimitStore, RedisRateLimits } from './rate-limit-store.ts';

/** One limit a request must pass: at most `max` admitted requests under `key` within the last `windowMs`. */
export interface WindowLimit {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * The answer to `take`. Admitted: counted under every key (`left[i]`: what limit i still admits after this one;
 * `release` takes it back, e.g. when the work it admitted was refused after all). Refused: counted nowhere, and
 * `refusedBy` is the index of the first limit that was full, free again in `retryAfterMs`.
 */
export type WindowAnswer =
  | { admitted: true; left: number[]; release: () => Promise<void> }
  | { admitted: false; refusedBy: number; retryAfterMs: number };

/**
 * Sliding-window counters (a log of admitted times per key), all-or-nothing across several limits: a request
 * is counted under every key or under none. In memory on one machine; in Redis (one atomic script) when several
 * API nodes share the limits. Times come from the caller (the app's clock), so every node judges the same way.
 */
export interface SlidingWindow {
  take(limits: WindowLimit[], now: number): Promise<WindowAnswer>;
}

export function createSlidingWindow(store: RateLimitStore, prefix: string): SlidingWindow {
  return store.kind === 'redis' ? sharedOrLocalWindow(store, redisWindow(store.client, prefix), memoryWindow(prefix)) : memoryWindow(prefix);
}

/**
 * Redis's windows while it answers; while it does not (a failed or timed-out command, until a PING answers again),
 * this process's own, with the same limits: a Redis outage never switches the limits off (rate-limit-store.ts).
 */
export function sharedOrLocalWindow(store: RedisRateLimits, shared: SlidingWindow, local: SlidingWindow): SlidingWindow {
  return {
    async take(limits, now) {
      if (store.mode() === 'local') return local.take(limits, now);
      try {
        return await shared.take(limits, now);
      } catch (err) {
        store.failed(err);
        return local.take(limits, now);
      }
    },
  };
}

const uniqueMember = (now: number) => `${now}-${randomBytes(6).toString('hex')}`;

/** How many keys the memory log may hold before expired ones are swept out. */
const SWEEP_AT = 10_000;

export function memoryWindow(prefix: string): SlidingWindow {
  const logs = new Map<string, { times: number[]; windowMs: number }>();
  const live = (key: string, windowMs: number, now: number): number[] => {
    const log = logs.get(key);
    if (!log) return [];
    const from = log.times.findIndex((t) => t > now - windowMs);
    log.times.splice(0, from < 0 ? log.times.length : from);
    return log.times;
  };
  const sweep = (now: number) => {
    for (const [key, log] of logs) if (live(key, log.windowMs, now).length === 0) logs.delete(key);
  };
  return {
    // Synchronous inside: no other take can interleave between the checks and the counting.
    take(limits, now) {
      return Promise.resolve(takeNow(limits, now));
    },
  };

  function takeNow(limits: WindowLimit[], now: number): WindowAnswer {
    if (logs.size > SWEEP_AT) sweep(now);
    const counts: number[] = [];
    for (const [i, { key, max, windowMs }] of limits.entries()) {
      const times = live(prefix + key, windowMs, now);
      if (times.length >= max) {
        const oldest = times[times.length - max] ?? now;
        return { admitted: false, refusedBy: i, retryAfterMs: Math.max(1, oldest + windowMs - now) };
      }
      counts.push(times.length);
    }
    for (const { key, windowMs } of limits) {
      const log = logs.get(prefix + key) ?? { times: [], windowMs };
      log.times.push(now);
      log.windowMs = Math.max(log.windowMs, windowMs);
      logs.set(prefix + key, log);
    }
    return {
      admitted: true,
      left: limits.map((l, i) => l.max - (counts[i] ?? 0) - 1),
      release: () => {
        for (const { key } of limits) {
          const times = logs.get(prefix + key)?.times;
          const at = times?.lastIndexOf(now) ?? -1;
          if (times && at >= 0) times.splice(at, 1);
        }
        return Promise.resolve();
      },
    };
  }
}

/**
 * A key expires a minute after its window (real time): the times in it are the app's clock, which may run apart from
 * Redis's (another node's clock, a test's manual clock), so expiry only collects keys, it never decides a limit.
 *
 * KEYS: the limits' keys; ARGV: now, member, then windowMs and max per key. Answers {0, left...} when admitted
 * (the member added under every key), or {i, retryAfterMs} when limit i (1-based) is full (nothing added).
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local counts = {}
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[1 + 2 * i])
  local max = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  if n >= max then
    local oldest = redis.call('ZRANGE', key, n - max, n - max, 'WITHSCORES')
    return {i, tonumber(oldest[2]) + window - now}
  end
  counts[i] = max - n - 1
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, tonumber(ARGV[1 + 2 * i]) + 60000)
end
return {0, unpack(counts)}
`;

type TakeCommand = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

/**
 * The windows in Redis. A Redis that is down or does not answer (the client's command timeout) rejects `take`:
 * sharedOrLocalWindow then counts in memory. A `release` that fails is dropped (the count expires with its window).
 */
export function redisWindow(client: Redis, prefix: string): SlidingWindow {
  const name = 'giftlensWindowTake';
  if (!(name in client)) client.defineCommand(name, { lua: TAKE_SCRIPT });
  const run = (client as unknown as Record<typeof name, TakeCommand>)[name].bind(client);
  return {
    async take(limits, now) {
      const keys = limits.map((l) => prefix + l.key);
      const member = uniqueMember(now);
      const args = limits.flatMap((l) => [l.windowMs, l.max]);
      const [refused = 0, ...rest] = await run(keys.length, ...keys, now, member, ...args);
      if (refused > 0)
        return { admitted: false, refusedBy: refused - 1, retryAfterMs: Math.max(1, rest[0] ?? 1) };
      return {
        admitted: true,
        left: rest,
        release: async () => {
          await Promise.all(keys.map((key) => client.zrem(key, member))).catch(() => undefined);
        },
      };
    },
  };
}
