import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
export const hmacHex = (secret: string, value: string | Buffer) =>
  createHmac('sha256', secret).update(value).digest('hex');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** A crypto-random numeric code, zero-padded. */
export function randomDigits(length: number): string {
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

/** Constant-time comparison of two strings (different lengths are simply unequal). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Derives a purpose-bound sub-key so one secret never signs two kinds of thing. */
export const deriveKey = (secret: string, purpose: string) => hmacHex(secret, `giftlens:${purpose}`);
