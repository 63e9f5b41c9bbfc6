import { RECIPIENT_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { type CheckEmailResponse, type RecipientVerifyOtpResponse, type VerifyGiftResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { createOneTimeCodes, type OneTimeCodesDeps } from '../auth/one-time-codes.ts';
import { withdrawn } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import { giftUnavailable } from '../scans/gift-rules.ts';
import { MAX_RECIPIENT_GIFTS } from '../gifts/gifts.service.ts';
import * as repo from './recipient-auth.repository.ts';
import type { Recipient } from './recipient-auth.table.ts';

export const RECIPIENT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export function createRecipientAuthService(deps: OneTimeCodesDeps) {
  const { db, clock } = deps;
  const codes = createOneTimeCodes(deps);

  return {
    /**
     * The same answer for every address (issue 37): whether one has a gift is not told to whoever asks. Its owner
     * learns it after proving the address with a code (verify-otp's isReady and giftIds).
     */
    async checkEmail(email: string): Promise<CheckEmailResponse> {
      await gifts.listActiveGiftsForEmail(db, email, 1);
      return { success: true, exists: true };
    },

    /**
     * The same answer for every address (issue 37), but a code is mailed only to an address some gift is addressed to:
     * the call cannot be used to mail strangers, nor to learn who has a gift.
     */
    async sendCode(email: string, client: string): Promise<{ resendAfter: number }> {
      const addressed = (await gifts.newestGiftForEmail(db, email)) !== undefined;
      return codes.send('recipient', email, client, RECIPIENT_RESEND_COOLDOWN_S, { deliver: addressed });
    },

    /** Checks the code and starts a recipient session for this e-mail; returns the raw token for the cookie. */
    async verifyCode(email: string, code: string): Promise<RecipientVerifyOtpResponse & { token: string }> {
      const codeId = await codes.check('recipient', email, code);
      const now = clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        await codes.consume(trx, codeId);
        const recipient = await repo.upsertRecipient(trx, email, randomHex(16), now);
        const active = await gifts.listActiveGiftsForEmail(trx, email, MAX_RECIPIENT_GIFTS);
        const token = await codes.startSession(trx, 'recipient', email, RECIPIENT_SESSION_TTL_MS);
        return {
          success: true,
          isReady: active.length > 0,
          recipientId: recipient.id,
          giftIds: active.map((g) => g.id),
          token,
        };
      });
    },

    async recipientForToken(token: string | undefined): Promise<Recipient | null> {
      const email = await codes.sessionSubject(token, 'recipient');
      if (!email) return null;
      return (await repo.findRecipientByEmail(db, email)) ?? null;
    },

    /** The name of the recipient's newest gift; only for the session's own recipient id. */
    async recipientName(recipient: Recipient, recipientId: string): Promise<string> {
      if (recipient.id !== recipientId) throw new AppError(403, 'forbidden', texts.recipient.recipientIdMissing);
      return (await gifts.newestGiftForEmail(db, recipient.email))?.recipient_name ?? 'there';
    },

    /** The gift link is a bearer capability for the greeting: the name and whether the gift is ready. */
    async verifyGift(giftId: string): Promise<VerifyGiftResponse> {
      const gift = await gifts.findGiftGreeting(db, giftId);
      if (!gift) throw giftNotFound();
      // Refunded or taken down by staff: the link says the gift is no longer available.
      if (withdrawn(gift)) throw giftUnavailable();
      const isActive = gift.status === 'active';
      const preparing = isActive && gift.message_state === 'processing';
      return { success: true, giftId: gift.id, giftDetails: { recipientName: gift.recipient_name, isActive, is_active: isActive, preparing } };
    },
  };
}

export type RecipientAuthService = ReturnType<typeof createRecipientAuthService>;
