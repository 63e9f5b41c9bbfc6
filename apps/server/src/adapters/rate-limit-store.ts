import type { Redis } from 'ioredis';

/**
 * Where @fastify/rate-limit and the live-frame windows keep their counters: in memory on one machine, Redis
 * (REDIS_URL) when several API nodes share the limits. `trouble` reports a failed Redis command (at most one log
 * line a minute): the limits then fail open, so a Redis outage slows no one down and refuses no one.
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis; trouble: (err: unknown) => void };

/** How long a Redis command may take before the limit it serves is skipped (a hung Redis must not hang requests). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How long start-up waits for Redis before it goes on without it (the limits fail open until it answers). */
const REDIS_READY_WAIT_MS = 2000;
const TROUBLE_LOG_EVERY_MS = 60_000;

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
  let lastLogged = 0;
  const trouble = (err: unknown) => {
    const now = Date.now();
    if (now - lastLogged < TROUBLE_LOG_EVERY_MS) return;
    lastLogged = now;
    warn(`redis: ${err instanceof Error ? err.message : String(err)}; rate limits are not enforced until it answers again`);
  };
  client.on('error', trouble);
  // @fastify/rate-limit skips a failed command without a word, and a command that times out is no client error: a
  // PING now and then says when Redis stops answering.
  const watch = setInterval(() => void client.ping().catch(trouble), watchEveryMs).unref();
  client.once('end', () => clearInterval(watch));
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) trouble(new Error(`no answer from ${new URL(redisUrl).host} within ${REDIS_READY_WAIT_MS} ms`));
  return { kind: 'redis', client, trouble };
}
