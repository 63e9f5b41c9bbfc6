import { SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { STAFF_SESSION_TTL_MS, staffTexts, type StaffVerifyResponse } from '@giftlens/contract/staff';
import { texts } from '@giftlens/contract/texts';
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { createSealer } from '../../lib/sealed.ts';
import { createOneTimeCodes, type OneTimeCodesDeps } from '../auth/one-time-codes.ts';
import * as repo from './staff.repository.ts';

/** How long a first sign-in has to confirm its authenticator (the `gl_staff_enrol` cookie's session). */
export const STAFF_ENROL_TTL_MS = 10 * 60 * 1000;
const STEP_MS = 30_000;
const ISSUER = 'GiftLens staff';

export interface StaffMember {
  email: string;
  /** When this staff session ends (8 h after sign-in, never extended). */
  expiresAt: string;
}

export interface StaffAuthDeps extends OneTimeCodesDeps {
  /** STAFF_EMAILS, lowercased. */
  staffEmails: readonly string[];
}

const invalidCode = () => new AppError(400, 'invalid_code', texts.sender.invalidCode);
const totpInvalid = () => new AppError(401, 'totp_invalid', staffTexts.totpInvalid);

/**
 * Staff sign-in (decision 051): an e-mail code of its own purpose, then a TOTP second factor (RFC 6238: SHA-1, 30 s,
 * 6 digits, one step of drift either way, each step accepted once). An address that is not staff gets the same
 * answers (its code is made and never mailed, so it can never be right) and never a session.
 */
export function createStaffAuthService(deps: StaffAuthDeps) {
  const { db, clock } = deps;
  const staff = new Set(deps.staffEmails);
  const codes = createOneTimeCodes(deps);
  const secrets = createSealer(deps.sessionSecret, 'staff-totp');

  /** The 30-second step `totp` is right for (now, or one step either side), or null. */
  function stepOf(secret: string, totp: string): number | null {
    const now = clock.now().getTime();
    const delta = authenticator.clone({ epoch: now, window: 1 }).checkDelta(totp, secret);
    return delta === null ? null : Math.floor(now / STEP_MS) + delta;
  }

  /**
   * Checks the TOTP against the member's secret and takes its step, in the transaction that starts the session: a
   * colleague's reset (decision 055) deletes the member's row, so a sign-in racing it either takes the step first
   * (and the reset, which waits for the row, then ends the new session too) or finds no row and is refused.
   */
  async function acceptTotp(trx: Executor, email: string, sealed: string, totp: string): Promise<void> {
    const secret = secrets.open(email, sealed);
    const step = secret ? stepOf(secret, totp) : null;
    if (step === null || !(await repo.acceptTotpStep(trx, email, step, clock.now().toISOString()))) throw totpInvalid();
  }

  const startSession = () => ({ signedIn: true, totpRequired: false, totpEnrolment: null });

  return {
    isStaff: (email: string) => staff.has(email),
    enabled: staff.size > 0,

    async sendCode(email: string, client: string) {
      const { resendAfter } = await codes.send('staff', email, client, SENDER_RESEND_COOLDOWN_S, { deliver: staff.has(email) });
      return { success: true as const, resendAfter };
    },

    /**
     * Answers what comes next and, on a sign-in, the session token for the `gl_staff` cookie (or the enrolment's for
     * `gl_staff_enrol`). The e-mail code is spent only when a session or an enrolment starts.
     */
    async verify(email: string, code: string, totp: string | undefined): Promise<{ body: StaffVerifyResponse; session?: string; enrolment?: string }> {
      const codeId = await codes.check('staff', email, code);
      if (!staff.has(email)) throw invalidCode();
      const member = await repo.findMember(db, email);
      if (!member || member.totp_confirmed_at === null) {
        const secret = authenticator.generateSecret(20);
        const otpauthUrl = authenticator.keyuri(email, ISSUER, secret);
        const qrCode = `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1 })).toString('base64')}`;
        const enrolment = await db.transaction().execute(async (trx) => {
          await codes.consume(trx, codeId);
          await repo.putPendingSecret(trx, email, secrets.seal(email, secret), clock.now().toISOString());
          return codes.startSession(trx, 'staff_enrol', email, STAFF_ENROL_TTL_MS);
        });
        return { body: { success: true, signedIn: false, totpRequired: false, totpEnrolment: { secret, otpauthUrl, qrCode } }, enrolment };
      }
      if (totp === undefined) return { body: { success: true, signedIn: false, totpRequired: true, totpEnrolment: null } };
      const session = await db.transaction().execute(async (trx) => {
        await acceptTotp(trx, email, member.totp_secret, totp);
        await codes.consume(trx, codeId);
        return codes.startSession(trx, 'staff', email, STAFF_SESSION_TTL_MS);
      });
      return { body: { success: true, ...startSession() }, session };
    },

    /** The first sign-in's authenticator code: confirms the enrolment and starts the session. */
    async confirmTotp(enrolToken: string | undefined, totp: string): Promise<{ session: string }> {
      const email = await codes.sessionSubject(enrolToken, 'staff_enrol');
      if (!email || !staff.has(email)) throw new AppError(401, 'enrolment_expired', staffTexts.enrolmentExpired);
      const member = await repo.findMember(db, email);
      if (!member) throw new AppError(401, 'enrolment_expired', staffTexts.enrolmentExpired);
      const session = await db.transaction().execute(async (trx) => {
        await acceptTotp(trx, email, member.totp_secret, totp);
        return codes.startSession(trx, 'staff', email, STAFF_SESSION_TTL_MS);
      });
      await codes.endSession(enrolToken, 'staff_enrol');
      return { session };
    },

    /** The staff member of a live session; an address taken out of STAFF_EMAILS loses its sessions at once. */
    async memberForToken(token: string | undefined): Promise<StaffMember | null> {
      const session = await codes.liveSession(token, 'staff');
      if (!session || !staff.has(session.subject)) return null;
      return { email: session.subject, expiresAt: session.expires_at };
    },

    signOut: (token: string | undefined) => codes.endSession(token, 'staff'),
  };
}

export type StaffAuthService = ReturnType<typeof createStaffAuthService>;
