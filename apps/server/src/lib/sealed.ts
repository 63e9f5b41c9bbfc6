import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './crypto.ts';

const VERSION = 'v1';

/**
 * Values kept sealed in the database (a backup code, a staff member's TOTP secret): AES-256-GCM under a key derived
 * from SESSION_SECRET for one `purpose`, bound to the row's id as associated data, so the database alone gives
 * nothing away and a sealed value moved to another row opens nothing. "v1.{iv}.{tag}.{ciphertext}", base64url. A
 * value sealed under another secret (the secret was changed) opens as null.
 */
export function createSealer(sessionSecret: string, purpose: string) {
  const key = Buffer.from(deriveKey(sessionSecret, purpose), 'hex');
  return {
    seal: (boundTo: string, value: string): string => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo));
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open: (boundTo: string, sealed: string | null): string | null => {
      if (!sealed) return null;
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || !body) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(boundTo));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
