import * as z from 'zod/mini';
import { BACKUP_CODE } from './constants.ts';
import { ErrorBody, GiftId } from './common.ts';
import { ScanResponse } from './recipient.ts';

/** A paid gift's backup code: exactly 8 digits, as a string (leading zeros kept). */
export const BackupCode = z.string().check(z.regex(new RegExp(`^\\d{${BACKUP_CODE.digits}}$`)));
export type BackupCode = z.infer<typeof BackupCode>;

/**
 * POST /api/verification-recipient/open-with-code/{giftId} (the gift link is the capability) and
 * POST /api/verification-recipient/open-with-code (a recipient session: the code is tried against the session
 * e-mail's active gifts, `recipient_id` must be the session's). The code may be typed with spaces or dashes.
 *
 * A right code answers exactly as a matching direct scan does (ScanResponse with success true, the reveal grant
 * cookie, a reveal counted against the plan, the sender's "opened" notice; matchResult.score is 0: nothing was
 * matched). A wrong code answers 400 `backup_code_wrong` (texts.backupCode.wrong); after BACKUP_CODE.wrongPerGift
 * wrong codes for one gift within an hour, 429 `too_many_wrong_codes` with Retry-After. The gift's plan rules are
 * the scan's (404 for a gift that does not exist, 403 not ready or used up, 410 expired).
 */
export const OpenWithCodeRequest = z.object({
  code: z.string().check(z.maxLength(32)),
  recipient_id: z.optional(z.string().check(z.maxLength(64))),
});
export type OpenWithCodeRequest = z.infer<typeof OpenWithCodeRequest>;
export const OpenWithCodeResponse = z.extend(ScanResponse, { success: z.literal(true) });
export type OpenWithCodeResponse = z.infer<typeof OpenWithCodeResponse>;
export const OpenWithCodeErrors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody };

// POST /api/gift-sender/gifts/{giftId}/backup-code: a new code for the session's own paid gift; the old one stops
// working at once.
export const NewBackupCodeResponse = z.object({ success: z.literal(true), giftId: GiftId, backupCode: BackupCode });
export type NewBackupCodeResponse = z.infer<typeof NewBackupCodeResponse>;
