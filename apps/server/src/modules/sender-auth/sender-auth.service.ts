import { SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { UpdateUserRequest } from '@giftlens/contract/sender';
import { randomHex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { createOneTimeCodes, type OneTimeCodesDeps } from '../auth/one-time-codes.ts';
import * as repo from './sender-auth.repository.ts';
import type { Sender } from './sender-auth.table.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export function createSenderAuthService(deps: OneTimeCodesDeps) {
  const { db, clock } = deps;
  const codes = createOneTimeCodes(deps);

  return {
    /** Sends a fresh 6-digit code asked for from `client`; the limits (CODE_LIMITS) are enforced here, not trusted to the page. */
    sendEmailCode: (email: string, client: string): Promise<{ resendAfter: number }> =>
      codes.send('sender', email, client, SENDER_RESEND_COOLDOWN_S),

    /** Checks the code and starts a session; returns the raw session token for the cookie. */
    async verifyEmailCode(email: string, code: string) {
      const codeId = await codes.check('sender', email, code);
      const nowIso = clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        await codes.consume(trx, codeId);
        const existing = await repo.findSenderByEmail(trx, email);
        if (!existing) await repo.insertSenderIfNew(trx, { id: randomHex(16), email, now: nowIso });
        const sender = existing ?? (await repo.findSenderByEmail(trx, email));
        if (!sender) throw new Error('sender row missing after upsert');
        const token = await codes.startSession(trx, 'sender', sender.id, SESSION_TTL_MS);
        return {
          token,
          isNewUser: !existing,
          firstName: sender.first_name,
        };
      });
    },

    async senderForToken(token: string | undefined): Promise<Sender | null> {
      const senderId = await codes.sessionSubject(token, 'sender');
      if (!senderId) return null;
      return (await repo.findSenderById(db, senderId)) ?? null;
    },

    /** Sign out on this device: the session is revoked on the server, not only the cookie dropped. */
    signOut: (token: string | undefined) => codes.endSession(token, 'sender'),

    /** Sign out everywhere: every session of this sender ends. */
    async signOutEverywhere(sender: Sender): Promise<number> {
      return codes.endAllSessions('sender', sender.id);
    },

    /** The name step: only for the session's own e-mail, whatever the page sends. */
    async updateUser(sender: Sender, req: UpdateUserRequest): Promise<void> {
      if (req.email !== undefined && req.email !== sender.email) throw new AppError(403, 'forbidden', texts.sender.sessionExpired);
      await repo.updateSender(db, sender.id, { first_name: req.firstName, updated_at: clock.now().toISOString() });
    },
  };
}

export type SenderAuthService = ReturnType<typeof createSenderAuthService>;
