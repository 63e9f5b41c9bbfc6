import { BACKUP_CODE } from '@giftlens/contract/constants';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey, randomDigits, safeEqual } from './crypto.ts';

const VERSION = 'v1';

/**
 * A gift's backup code is kept sealed (decision 039): AES-256-GCM under a key derived from SESSION_SECRET, with the
 * gift's id as associated data, so the database alone gives no code away, a sealed code moved to another gift's row
 * opens nothing, and the sender can still be shown their code later. A code sealed under another secret (the secret
 * was changed) opens as null: the sender makes a new one in My Gifts.
 */
export function createBackupCodes(sessionSecret: string) {
  const key = Buffer.from(deriveKey(sessionSecret, 'backup-codes'), 'hex');

  function seal(giftId: string, code: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(giftId));
    const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  function open(giftId: string, sealed: string | null): string | null {
    if (!sealed) return null;
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || !body) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(giftId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

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
