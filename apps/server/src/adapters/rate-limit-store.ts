import { Redis } from 'ioredis';

/**
 * Where @fastify/rate-limit keeps its counters: in memory on one machine, Redis (REDIS_URL) when several API
 * nodes share the limits.
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

export function createRateLimitStore(redisUrl: string | null): RateLimitStore {
  if (!redisUrl) return { kind: 'memory' };
  return { kind: 'redis', client: new Redis(redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1 }) };
}
