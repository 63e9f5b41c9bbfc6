import { SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { UpdateUserRequest } from '@giftlens/contract/sender';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { createOneTimeCodes } from '../auth/one-time-codes.ts';
import * as repo from './sender-auth.repository.ts';
import type { Sender } from './sender-auth.table.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SenderAuthDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  sessionSecret: string;
  log: (line: string) => void;
}

export function createSenderAuthService(deps: SenderAuthDeps) {
  const { db, clock } = deps;
  const codes = createOneTimeCodes(deps);

  return {
    /** Sends a fresh 6-digit code; the 60 s cooldown per address is enforced here, not trusted to the page. */
    async sendEmailCode(email: string): Promise<{ resendAfter: number }> {
      await codes.send('sender', email, SENDER_RESEND_COOLDOWN_S);
      return { resendAfter: SENDER_RESEND_COOLDOWN_S };
    },

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
