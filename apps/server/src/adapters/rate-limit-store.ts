import type { Redis } from 'ioredis';

/**
 * Where @fastify/rate-limit keeps its counters: in memory on one machine, Redis (REDIS_URL) when several API
 * nodes share the limits.
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

/** ioredis is loaded only with a REDIS_URL (a one-machine server never reads its ~40 files; decision 022). */
export async function createRateLimitStore(redisUrl: string | null): Promise<RateLimitStore> {
  if (!redisUrl) return { kind: 'memory' };
  const { Redis } = await import('ioredis');
  return { kind: 'redis', client: new Redis(redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1 }) };
}
