import type { FastifyRequest } from 'fastify';
import { SENDER_COOKIE, sessionGuard, type SessionGuard } from '../../lib/http.ts';
import type { Sender } from './sender-auth.table.ts';

/** Every sender call after verification goes through this: no valid session cookie, no access. */
export const senderGuard = (resolve: (token: string | undefined) => Promise<Sender | null>) =>
  sessionGuard(SENDER_COOKIE, resolve);

export type RequireSender = SessionGuard<Sender>;

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/**
 * A route's rate limit per sender (whichever of their sessions calls), for calls that cost CPU: checked after the
 * session guard (an anonymous call is refused by it first) and before the handler reads the body.
 */
export const perSender = (requireSender: RequireSender, limit: RateLimit) => ({
  rateLimit: {
    ...limit,
    hook: 'preHandler' as const,
    keyGenerator: async (request: FastifyRequest) => `sender:${(await requireSender(request)).id}`,
  },
});
