import * as z from 'zod/mini';
import { BACKUP_CODE } from './constants.ts';
import { GiftId } from './common.ts';

/**
 * A paid gift's backup code: exactly 8 digits, as a string (leading zeros kept). Opening a gift with it is a
 * recipient's call (recipient.ts: OpenWithCodeRequest): this module stays small for the sender's My Gifts.
 */
export const BackupCode = z.string().check(z.regex(new RegExp(`^\\d{${BACKUP_CODE.digits}}$`)));
export type BackupCode = z.infer<typeof BackupCode>;

// POST /api/gift-sender/gifts/{giftId}/backup-code: a new code for the session's own paid gift; the old one stops
// working at once.
export const NewBackupCodeResponse = z.object({ success: z.literal(true), giftId: GiftId, backupCode: BackupCode });
export type NewBackupCodeResponse = z.infer<typeof NewBackupCodeResponse>;
