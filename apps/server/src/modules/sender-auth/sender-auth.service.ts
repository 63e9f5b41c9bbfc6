import {
  CODE_LENGTH,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  SENDER_RESEND_COOLDOWN_S,
} from '@giftlens/contract/constants';
import { M } from '@giftlens/contract/messages';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/database.ts';
import { deriveKey, hmacHex, randomDigits, randomHex, randomToken, safeEqual, sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
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

export function verificationEmail(code: string) {
  const subject = `Your GiftLens verification code is ${code}`;
  const text = [
    `Your GiftLens verification code is ${code}`,
    '',
    'Enter it in the page where you asked for it. It expires in 10 minutes.',
    "If you did not ask for this code, you can ignore this e-mail.",
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>Your GiftLens verification code is</p>
<p style="font-size:32px;font-weight:bold;letter-spacing:8px;margin:16px 0">${code}</p>
<p>Enter it in the page where you asked for it. It expires in 10 minutes.</p>
<p style="color:#6b7280;font-size:12px">If you did not ask for this code, you can ignore this e-mail.</p>
</body></html>`;
  return { subject, text, html };
}

export function createSenderAuthService({ db, mailer, clock, sessionSecret, log }: SenderAuthDeps) {
  const codeKey = deriveKey(sessionSecret, 'verification-codes');
  const hashCode = (email: string, code: string) => hmacHex(codeKey, `sender:${email}:${code}`);

  return {
    /** Sends a fresh 6-digit code; the 60 s cooldown per address is enforced here, not trusted to the page. */
    async sendEmailCode(email: string): Promise<{ resendAfter: number }> {
      const now = clock.now();
      const latest = await repo.latestCode(db, 'sender', email);
      if (latest) {
        const elapsedMs = now.getTime() - Date.parse(latest.created_at);
        const waitMs = SENDER_RESEND_COOLDOWN_S * 1000 - elapsedMs;
        if (waitMs > 0) {
          throw new AppError(429, 'resend_too_early', M.resendTooEarly, { retryAfter: Math.ceil(waitMs / 1000) });
        }
      }
      const code = randomDigits(CODE_LENGTH);
      const id = randomHex(16);
      const nowIso = now.toISOString();
      await db.transaction().execute(async (trx) => {
        await repo.retireCodes(trx, 'sender', email, nowIso);
        await repo.insertCode(trx, {
          id,
          purpose: 'sender',
          destination: email,
          codeHash: hashCode(email, code),
          expiresAt: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
          now: nowIso,
        });
      });
      try {
        await mailer.send({ to: email, ...verificationEmail(code) });
      } catch (err) {
        // A code nobody received must not hold the cooldown.
        await repo.deleteCode(db, id);
        log(`[mail] sending the verification code failed: ${err instanceof Error ? err.message : String(err)}`);
        throw new AppError(502, 'send_code_failed', M.sendCodeFailed);
      }
      return { resendAfter: SENDER_RESEND_COOLDOWN_S };
    },

    /** Checks the code and starts a session; returns the raw session token for the cookie. */
    async verifyEmailCode(email: string, code: string) {
      const now = clock.now();
      const nowIso = now.toISOString();
      const latest = await repo.latestCode(db, 'sender', email);
      if (!latest || latest.consumed_at !== null) throw new AppError(400, 'invalid_code', M.invalidCode);
      if (Date.parse(latest.expires_at) <= now.getTime()) throw new AppError(400, 'code_expired', M.codeExpired);
      if (latest.attempts >= CODE_MAX_ATTEMPTS) throw new AppError(400, 'too_many_attempts', M.tooManyAttempts);

      if (!safeEqual(hashCode(email, code), latest.code_hash)) {
        await repo.recordWrongAttempt(db, latest.id, CODE_MAX_ATTEMPTS);
        if (latest.attempts + 1 >= CODE_MAX_ATTEMPTS) {
          throw new AppError(400, 'too_many_attempts', M.tooManyAttempts);
        }
        throw new AppError(400, 'invalid_code', M.invalidCode);
      }

      return db.transaction().execute(async (trx) => {
        if (!(await repo.consumeCode(trx, latest.id, CODE_MAX_ATTEMPTS, nowIso))) {
          throw new AppError(400, 'invalid_code', M.invalidCode);
        }
        const existing = await repo.findSenderByEmail(trx, email);
        if (!existing) {
          await trx
            .insertInto('senders')
            .values({ id: randomHex(16), email, phone_number: null, first_name: null, created_at: nowIso, updated_at: nowIso })
            .onConflict((oc) => oc.column('email').doNothing())
            .execute();
        }
        const sender = existing ?? (await repo.findSenderByEmail(trx, email));
        if (!sender) throw new Error('sender row missing after upsert');
        const token = randomToken(32);
        await repo.insertSession(trx, {
          tokenHash: sha256Hex(token),
          kind: 'sender',
          subject: sender.id,
          now: nowIso,
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        });
        return {
          token,
          isNewUser: !existing,
          firstName: sender.first_name,
        };
      });
    },

    async senderForToken(token: string | undefined): Promise<Sender | null> {
      if (!token) return null;
      const session = await repo.findSession(db, sha256Hex(token), 'sender', clock.now().toISOString());
      if (!session) return null;
      return (await repo.findSenderById(db, session.subject)) ?? null;
    },

    async updateFirstName(sender: Sender, firstName: string): Promise<void> {
      await repo.updateSender(db, sender.id, { first_name: firstName, updated_at: clock.now().toISOString() });
    },
  };
}

export type SenderAuthService = ReturnType<typeof createSenderAuthService>;
