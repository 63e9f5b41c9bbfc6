import { CODE_DAILY_LIMIT, CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db, Executor } from '../../db/database.ts';
import * as repo from './auth.repository.ts';
import type { CodePurpose, SessionKind } from './auth.table.ts';
import { deriveKey, hmacHex, randomDigits, randomHex, randomToken, safeEqual, sha256Hex } from '../../lib/crypto.ts';
import { renderEmail } from '../../lib/email-layout.ts';
import { AppError } from '../../lib/errors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The refusal for an address sent `sent` codes (oldest first) in the last day, or null while it is under the cap. */
function dailyLimitRefusal(sent: { created_at: string }[], now: Date): AppError | null {
  const oldest = sent[sent.length - CODE_DAILY_LIMIT];
  if (!oldest) return null;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(oldest.created_at) + DAY_MS - now.getTime()) / 1000));
  return new AppError(429, 'daily_code_limit', texts.sender.tooManyCodesToday, { retryAfter });
}

export interface OneTimeCodesDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  sessionSecret: string;
  log: (line: string) => void;
}

export function verificationEmail(code: string) {
  return renderEmail({
    subject: `Your GiftLens verification code is ${code}`,
    preheader: `Your code is ${code}. It expires in 10 minutes.`,
    heading: 'Your verification code',
    paragraphs: [
      `Your GiftLens verification code is ${code}. Enter it in the page where you asked for it; it expires in 10 minutes.`,
    ],
    highlight: code,
    footnote: 'If you did not ask for this code, you can ignore this e-mail.',
  });
}

/**
 * E-mailed one-time codes, shared by senders and recipients: 6 digits, stored as an HMAC, 10-minute expiry,
 * 5 tries (each taken before the compare), a server-side resend cooldown taken atomically, and only the newest
 * code of a purpose and address is live.
 */
export function createOneTimeCodes({ db, mailer, clock, sessionSecret, log }: OneTimeCodesDeps) {
  const codeKey = deriveKey(sessionSecret, 'verification-codes');
  const hashCode = (purpose: CodePurpose, email: string, code: string) =>
    hmacHex(codeKey, `${purpose}:${email}:${code}`);

  async function liveSession(token: string | undefined, kind: SessionKind) {
    if (!token) return null;
    return (await repo.findSession(db, sha256Hex(token), kind, clock.now().toISOString())) ?? null;
  }

  return {
    /**
     * `deliver: false` does everything but the mail (the staff console, to an address that is not staff: the same
     * cooldown, cap and answers as a real one, and a code nobody is told).
     */
    async send(purpose: CodePurpose, email: string, cooldownS: number, { deliver = true } = {}): Promise<void> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const cutoff = new Date(now.getTime() - cooldownS * 1000).toISOString();
      // The cap is the address's, whichever flow asks: each code mails the address and buys 5 more guesses. Read
      // here first so a capped address is told so (not to wait a cooldown), and again where the code is stored.
      const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
      const overCap = async (ex: Executor) => dailyLimitRefusal(await repo.codesSentSince(ex, email, dayAgo), now);
      const early = await overCap(db);
      if (early) throw early;
      if (!(await repo.claimResendSlot(db, purpose, email, nowIso, cutoff))) {
        const last = await repo.findResendSlot(db, purpose, email);
        const waitMs = cooldownS * 1000 - (now.getTime() - (last ? Date.parse(last.sent_at) : now.getTime()));
        throw new AppError(429, 'resend_too_early', texts.sender.resendTooEarly, { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) });
      }
      const code = randomDigits(CODE_LENGTH);
      const id = randomHex(16);
      let mailing = false;
      try {
        await db.transaction().execute(async (trx) => {
          // Two flows asking for the address's last code at once: the second waits here and counts the first's.
          await repo.lockDestination(trx, email);
          const refusal = await overCap(trx);
          if (refusal) throw refusal;
          await repo.retireCodes(trx, purpose, email, nowIso);
          await repo.insertCode(trx, {
            id,
            purpose,
            destination: email,
            codeHash: hashCode(purpose, email, code),
            expiresAt: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
            now: nowIso,
          });
        });
        mailing = true;
        if (deliver) await mailer.send({ to: email, ...verificationEmail(code) });
      } catch (err) {
        // A code nobody received (not stored, or not mailed) must not hold the cooldown.
        await repo.deleteCode(db, id);
        await repo.releaseResendSlot(db, purpose, email, nowIso);
        if (!mailing) throw err;
        log(`[mail] sending the verification code failed: ${err instanceof Error ? err.message : String(err)}`);
        throw new AppError(502, 'send_code_failed', texts.sender.sendCodeFailed);
      }
    },

    /** Checks the newest code, spending one of its tries; returns its id for `consume` in the caller's transaction. */
    async check(purpose: CodePurpose, email: string, code: string): Promise<string> {
      const now = clock.now();
      const latest = await repo.latestCode(db, purpose, email);
      if (!latest || latest.consumed_at !== null) throw new AppError(400, 'invalid_code', texts.sender.invalidCode);
      if (Date.parse(latest.expires_at) <= now.getTime()) throw new AppError(400, 'code_expired', texts.sender.codeExpired);
      const used = await repo.takeAttempt(db, latest.id, CODE_MAX_ATTEMPTS);
      if (used === null) throw new AppError(400, 'too_many_attempts', texts.sender.tooManyAttempts);
      if (!safeEqual(hashCode(purpose, email, code), latest.code_hash)) {
        if (used >= CODE_MAX_ATTEMPTS) throw new AppError(400, 'too_many_attempts', texts.sender.tooManyAttempts);
        throw new AppError(400, 'invalid_code', texts.sender.invalidCode);
      }
      return latest.id;
    },

    /** Uses the code up exactly once, even when two verifications race. */
    async consume(trx: Executor, id: string): Promise<void> {
      if (!(await repo.consumeCode(trx, id, clock.now().toISOString()))) {
        throw new AppError(400, 'invalid_code', texts.sender.invalidCode);
      }
    },

    /** Starts a session of this kind; returns the raw token for the cookie (only its hash is stored). */
    async startSession(trx: Executor, kind: SessionKind, subject: string, ttlMs: number): Promise<string> {
      const now = clock.now();
      const token = randomToken(32);
      await repo.insertSession(trx, {
        tokenHash: sha256Hex(token),
        kind,
        subject,
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      });
      return token;
    },

    /** Ends every session of a subject (sign out everywhere). */
    endAllSessions: (kind: SessionKind, subject: string) => repo.deleteSubjectSessions(db, kind, subject),

    /** Ends the session behind this token (sign out on this device). */
    async endSession(token: string | undefined, kind: SessionKind): Promise<void> {
      if (token) await repo.deleteSession(db, sha256Hex(token), kind);
    },

    /** The subject of a live session of this kind, or null. */
    async sessionSubject(token: string | undefined, kind: SessionKind): Promise<string | null> {
      return (await liveSession(token, kind))?.subject ?? null;
    },

    /** A live session of this kind (its subject and expiry), or null. */
    liveSession,
  };
}

export type OneTimeCodes = ReturnType<typeof createOneTimeCodes>;
