import { REVEAL_GRANT_MAX_MS, REVEAL_GRANT_TTL_MS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../adapters/clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { requestCookie, setSessionCookie } from '../../lib/http.ts';
import * as repo from './reveal-grants.repository.ts';

/** One cookie per gift, so revealing a second gift does not end the first one's grant. */
export const revealCookieName = (giftId: string) => `gl_reveal_${giftId}`;

export const revealRequired = () => new AppError(403, 'reveal_required', texts.recipient.revealRequired);

/**
 * A matching scan grants the browser that made it 5 minutes with that gift's message: a random token in an
 * HttpOnly cookie, stored hashed with the gift id and expiry. Nobody reads a message without a matching scan.
 */
export function createRevealGrants({ db, clock, secureCookies }: { db: Db; clock: Clock; secureCookies: boolean }) {
  async function has(request: FastifyRequest, giftId: string): Promise<boolean> {
    const token = requestCookie(request, revealCookieName(giftId));
    if (!token) return false;
    return repo.hasLiveGrant(db, sha256Hex(token), giftId, clock.now().toISOString());
  }

  return {
    /** Stores a new grant for the gift (in the caller's transaction); returns the token for the cookie. */
    async issue(trx: Executor, giftId: string): Promise<string> {
      const now = clock.now();
      const token = randomToken(32);
      await repo.insertGrant(trx, {
        tokenHash: sha256Hex(token),
        giftId,
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + REVEAL_GRANT_TTL_MS).toISOString(),
      });
      return token;
    },

    /** Hands an issued grant to the browser that made the scan. */
    setCookie(reply: FastifyReply, giftId: string, token: string): void {
      setSessionCookie(reply, revealCookieName(giftId), token, {
        secure: secureCookies,
        maxAgeMs: REVEAL_GRANT_TTL_MS,
        path: '/api/',
      });
    },

    has,

    /**
     * Requires a live grant of this gift and renews it (issue 37): REVEAL_GRANT_TTL_MS more from now, cookie
     * included, but never beyond REVEAL_GRANT_MAX_MS after the scan. The message page asks while a message plays,
     * so a long message plays to its end; a page left alone still loses its reveal 5 minutes after its last ask.
     */
    async renew(request: FastifyRequest, reply: FastifyReply, giftId: string): Promise<void> {
      const token = requestCookie(request, revealCookieName(giftId));
      if (!token) throw revealRequired();
      const now = clock.now();
      const expires = await repo.renewGrant(db, sha256Hex(token), giftId, now.toISOString(), new Date(now.getTime() + REVEAL_GRANT_TTL_MS), REVEAL_GRANT_MAX_MS);
      if (!expires) throw revealRequired();
      setSessionCookie(reply, revealCookieName(giftId), token, { secure: secureCookies, maxAgeMs: expires.getTime() - now.getTime(), path: '/api/' });
    },

    async require(request: FastifyRequest, giftId: string): Promise<void> {
      if (!(await has(request, giftId))) throw revealRequired();
    },
  };
}

export type RevealGrants = ReturnType<typeof createRevealGrants>;
