import { CODE_LENGTH, CODE_LIMITS, CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { SlidingWindow } from '../../adapters/sliding-window.ts';
import type { Db, Executor } from '../../db/database.ts';
import * as repo from './auth.repository.ts';
import type { CodePurpose, SessionKind } from './auth.table.ts';
import { deriveKey, hmacHex, randomDigits, randomHex, randomToken, safeEqual, sha256Hex } from '../../lib/crypto.ts';
import { enqueue } from '../../jobs/queue.ts';
import { codeMailJobKey } from '../../jobs/keys.ts';
import { renderEmail } from '../../lib/email-layout.ts';
import { createSealer } from '../../lib/sealed.ts';
import { AppError } from '../../lib/errors.ts';

/** The limits a code request passes (CODE_LIMITS, issue 37); tests may name others. */
export type CodeLimits = { [K in keyof typeof CODE_LIMITS]: number };

export interface OneTimeCodesDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  sessionSecret: string;
  log: (line: string) => void;
  /** Where the per-client counts live (memory, or Redis shared by the API nodes): the same for every flow. */
  codeWindow: SlidingWindow;
  /** Default CODE_LIMITS. */
  codeLimits?: CodeLimits;
  /** Tells an in-process job runner that a code's mail is due now. */
  wakeJobs?: () => void;
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
 * 5 tries (each taken before the compare), limits per client address and a pace per target (CODE_LIMITS), and only the newest
 * code of a purpose and address is live.
 */
/** Seals a code into its mail job (bound to the code's id): the jobs table alone gives no live code away. */
export const codeSealer = (sessionSecret: string) => createSealer(sessionSecret, 'code-mail');

export function createOneTimeCodes({ db, clock, sessionSecret, codeWindow, codeLimits, wakeJobs }: OneTimeCodesDeps) {
  const sealer = codeSealer(sessionSecret);
  const limits = codeLimits ?? CODE_LIMITS;
  const codeKey = deriveKey(sessionSecret, 'verification-codes');
  const hashCode = (purpose: CodePurpose, email: string, code: string) =>
    hmacHex(codeKey, `${purpose}:${email}:${code}`);

  async function liveSession(token: string | undefined, kind: SessionKind) {
    if (!token) return null;
    return (await repo.findSession(db, sha256Hex(token), kind, clock.now().toISOString())) ?? null;
  }

  return {
    /**
     * Mails a fresh code for `purpose` to `email`, asked for from the client address `client`, within the limits
     * (CODE_LIMITS): the requester is slowed (429 per client address, and per client and target), the target never
     * locked out. A request within the target's pace is answered as a sent one and mails nothing: the code mailed a
     * moment ago is live and signs in. Answers when the same client may ask again (seconds).
     *
     * `deliver: false` does everything but the mail (the staff console, to an address that is not staff: the same
     * limits and answers as a real one, and a code nobody is told).
     */
    async send(purpose: CodePurpose, email: string, client: string, cooldownS: number, { deliver = true } = {}): Promise<{ resendAfter: number }> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const taken = await codeWindow.take(
        [
          { key: `client:${client}`, max: limits.perClient, windowMs: limits.clientWindowMs },
          { key: `pair:${purpose}:${client}:${email}`, max: 1, windowMs: cooldownS * 1000 },
        ],
        now.getTime(),
      );
      if (!taken.admitted) {
        const retryAfter = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
        throw new AppError(429, taken.refusedBy === 0 ? 'too_many_codes' : 'resend_too_early', texts.sender.resendTooEarly, { retryAfter });
      }
      const code = randomDigits(CODE_LENGTH);
      const id = randomHex(16);
      const paced = await db.transaction().execute(async (trx): Promise<number | null> => {
        // Two requests for the address at once: the second waits here and sees the first's code.
        await repo.lockDestination(trx, email);
        // The target's pace: while its latest code is live, no second mail within the pace (a minute; ten once it
        // was sent `burst` codes in the window). A used or expired code does not hold it: its owner gets a fresh one.
        const latest = await repo.latestCode(trx, purpose, email);
        const live = latest !== undefined && latest.consumed_at === null && Date.parse(latest.expires_at) > now.getTime();
        const recent = live ? await repo.codesSentSince(trx, email, new Date(now.getTime() - limits.clientWindowMs).toISOString()) : [];
        const paceMs = !live ? 0 : recent.length >= limits.burst ? limits.slowPaceMs : limits.paceMs;
        if (!(await repo.claimResendSlot(trx, purpose, email, nowIso, new Date(now.getTime() - paceMs).toISOString()))) {
          const last = await repo.findResendSlot(trx, purpose, email);
          return paceMs - (now.getTime() - (last ? Date.parse(last.sent_at) : now.getTime()));
        }
        await repo.retireCodes(trx, purpose, email, nowIso);
        await repo.insertCode(trx, {
          id,
          purpose,
          destination: email,
          codeHash: hashCode(purpose, email, code),
          expiresAt: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
          now: nowIso,
        });
        // The mail goes through the job runner for every address (staff too): the answer never waits for it.
        await enqueue(trx, now, 'auth.code_mail', { codeId: id, sealed: sealer.seal(id, code), deliver }, { key: codeMailJobKey(id) });
        return null;
      });
      // Within the pace: answered as sent; the code mailed a moment ago is the one to type.
      if (paced !== null) return { resendAfter: Math.max(cooldownS, Math.ceil(paced / 1000)) };
      wakeJobs?.();
      return { resendAfter: cooldownS };
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
