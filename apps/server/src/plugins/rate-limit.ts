import fastifyRateLimit from '@fastify/rate-limit';
import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type RateLimitStore, sharedOrLocalStore } from '../adapters/rate-limit-store.ts';
import { AppError } from '../lib/errors.ts';

/**
 * @fastify/rate-limit for the routes that declare a limit (none by default), refusing with decision 001's body and
 * Retry-After. fastify-plugin: the `rateLimit` decorator and the route hook that reads `config.rateLimit` are the
 * root's, for every module.
 */
async function rateLimit(app: FastifyInstance, { store }: { store: RateLimitStore }) {
  await app.register(fastifyRateLimit, {
    global: false,
    // In Redis under a prefix of ours; while Redis is down or does not answer, in this process's memory with the same
    // limits, rather than refusing, hanging or letting through every limited call (rate-limit-store.ts).
    ...(store.kind === 'redis' ? { store: sharedOrLocalStore(store, 'gl:rl:') } : {}),
    // No x-ratelimit-* headers on the answers under the limit (nothing reads them); a refusal keeps Retry-After.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', texts.sender.tooManyRequests, { retryAfter: Math.ceil(context.ttl / 1000) }),
  });
}

export const rateLimitPlugin = fp(rateLimit, { name: 'rate-limit' });
