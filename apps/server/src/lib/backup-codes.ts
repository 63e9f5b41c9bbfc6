import { BACKUP_CODE } from '@giftlens/contract/constants';
import { randomDigits, safeEqual } from './crypto.ts';
import { createSealer } from './sealed.ts';

/**
 * A gift's backup code is kept sealed (decision 039): AES-256-GCM under a key derived from SESSION_SECRET, with the
 * gift's id as associated data, so the database alone gives no code away, a sealed code moved to another gift's row
 * opens nothing, and the sender can still be shown their code later. A code sealed under another secret (the secret
 * was changed) opens as null: the sender makes a new one in My Gifts.
 */
export function createBackupCodes(sessionSecret: string) {
  const { seal, open } = createSealer(sessionSecret, 'backup-codes');

  return {
    seal,
    open,
    /** Whether `typed` (spaces and dashes ignored) is the gift's code; compared in constant time. */
    matches(giftId: string, sealed: string | null, typed: string): boolean {
      const code = open(giftId, sealed);
      // Only the length (public: 8) can end the comparison early; the digits are compared in constant time.
      return code !== null && safeEqual(typed.replace(/[\s-]/g, ''), code);
    },
    /** A fresh crypto-random code (8 digits, leading zeros kept) sealed for this gift: the code and what to store. */
    fresh(giftId: string): { code: string; sealed: string } {
      const code = randomDigits(BACKUP_CODE.digits);
      return { code, sealed: seal(giftId, code) };
    },
  };
}

export type BackupCodes = ReturnType<typeof createBackupCodes>;
