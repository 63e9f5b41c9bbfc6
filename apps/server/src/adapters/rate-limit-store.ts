import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

/**
 * Where @fastify/rate-limit and the live-frame windows keep their counters: in memory on one machine, Redis
 * (REDIS_URL) when several API nodes share the limits. While Redis does not answer, every limit is still enforced,
 * with the same numbers, by counters in this process's memory (`mode()` is then 'local'); a PING that answers makes
 * them shared again. A node alone therefore never lets a client past a limit, and several nodes let a client past
 * it at most once per node until Redis is back.
 */
export type RateLimitStore = { kind: 'memory' } | RedisRateLimits;

export interface RedisRateLimits {
  kind: 'redis';
  client: Redis;
  /** 'shared' while Redis answers; 'local' while it does not (the limits are counted in this process's memory). */
  mode(): 'shared' | 'local';
  /** A command failed or timed out: 'local' from now until Redis answers again. */
  failed(err: unknown): void;
  /** A PING (at most the command timeout): an answer makes the limits shared again, none makes them local. */
  check(): Promise<boolean>;
}

/** How long a Redis command may take before the limit it serves is counted in memory instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How long start-up waits for Redis before it goes on without it (the limits are per process until it answers). */
const REDIS_READY_WAIT_MS = 2000;

/** ioredis is loaded only with a REDIS_URL (a one-machine server never reads its ~40 files; decision 022). */
export async function createRateLimitStore(
  redisUrl: string | null,
  warn: (line: string) => void = () => {},
  { watchEveryMs = 10_000 }: { watchEveryMs?: number } = {},
): Promise<RateLimitStore> {
  if (!redisUrl) return { kind: 'memory' };
  const { Redis } = await import('ioredis');
  // While disconnected a command fails at once instead of queueing; a connected Redis that does not answer fails it
  // after REDIS_COMMAND_TIMEOUT_MS. ioredis keeps reconnecting meanwhile.
  const client = new Redis(redisUrl, {
    connectTimeout: 1000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  const store = redisRateLimits(client, warn, { watchEveryMs });
  const ready = await new Promise<boolean>((resolve) => {
    if (store.mode() === 'shared') return resolve(true);
    const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) store.failed(new Error(`no answer from ${new URL(redisUrl).host} within ${REDIS_READY_WAIT_MS} ms`));
  return store;
}

/**
 * The shared/local switch over a Redis client. Local until the client is ready; a failed command (or an 'error' of
 * the connection) makes it local, the client's 'ready' (it reconnected and answered) or an answered PING makes it
 * shared. A PING runs every `watchEveryMs`: a Redis that stops answering is noticed even while no limited call comes,
 * and one that answers again is used again. One log line when the limits become local, one when shared again.
 */
export function redisRateLimits(
  client: Redis,
  log: (line: string) => void = () => {},
  { watchEveryMs = 10_000 }: { watchEveryMs?: number } = {},
): RedisRateLimits {
  let mode: 'shared' | 'local' = client.status === 'ready' ? 'shared' : 'local';
  let said = false;
  const failed = (err: unknown) => {
    if (mode === 'shared' || !said)
      log(`redis: ${err instanceof Error ? err.message : String(err)}; rate limits are counted in this process only until it answers again`);
    said = true;
    mode = 'local';
  };
  const answered = () => {
    if (mode === 'local' && said) log('redis: answering again; rate limits are shared again');
    said = false;
    mode = 'shared';
  };
  client.on('error', failed);
  client.on('ready', answered);
  const check = () =>
    client.ping().then(
      () => (answered(), true),
      (err: unknown) => (failed(err), false),
    );
  const watch = setInterval(() => void check(), watchEveryMs).unref();
  client.once('end', () => clearInterval(watch));
  return { kind: 'redis', client, mode: () => mode, failed, check };
}

/**
 * @fastify/rate-limit's counter (its RedisStore's): one INCR per request under the key, which expires with the
 * window. Answers [count, ms left in the window].
 */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {current, ttl}
`;
type IncrCommand = (key: string, windowMs: number) => Promise<[number, number]>;

/** Fixed-window counts in memory, @fastify/rate-limit's own local store's rule, for while Redis is away. */
class MemoryCounts {
  private counts = new Map<string, { current: number; resetAt: number }>();
  private sweepAt = 10_000;

  incr(key: string, windowMs: number, now = Date.now()): { current: number; ttl: number } {
    if (this.counts.size > this.sweepAt) {
      for (const [k, c] of this.counts) if (c.resetAt <= now) this.counts.delete(k);
      // A map full of live counts (many clients at once) is swept again only once it has doubled.
      this.sweepAt = Math.max(10_000, this.counts.size * 2);
    }
    let count = this.counts.get(key);
    if (!count || count.resetAt <= now) {
      count = { current: 0, resetAt: now + windowMs };
      this.counts.set(key, count);
    }
    count.current++;
    return { current: count.current, ttl: count.resetAt - now };
  }
}

/**
 * The store @fastify/rate-limit counts in (its `store` option) when Redis is configured: Redis while it answers,
 * this process's memory while it does not, so a limit is never skipped. Keys are the plugin's own Redis store's
 * (`nameSpace`, then method and URL of the route, then the client's key), so counts carry over from that store.
 */
export function sharedOrLocalStore(store: RedisRateLimits, nameSpace: string): FastifyRateLimitStoreCtor {
  const name = 'giftlensRateLimitIncr';
  if (!(name in store.client)) store.client.defineCommand(name, { numberOfKeys: 1, lua: INCR_SCRIPT });
  const incrInRedis = (store.client as unknown as Record<typeof name, IncrCommand>)[name].bind(store.client);
  const memory = new MemoryCounts();

  class SharedOrLocal implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = nameSpace,
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow = 60_000) {
      const local = () => callback(null, memory.incr(this.prefix + key, timeWindow));
      if (store.mode() === 'local') return local();
      incrInRedis(this.prefix + key, timeWindow).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (err: unknown) => {
          store.failed(err);
          local();
        },
      );
    }

    /** The plugin passes the route's merged options, its method and URL in `routeInfo` (none for app.rateLimit()). */
    child(options: object): FastifyRateLimitStore {
      const route = (options as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      return new SharedOrLocal(options, `${this.prefix}${String(route?.method)}${String(route?.url)}-`);
    }
  }
  return SharedOrLocal;
}
