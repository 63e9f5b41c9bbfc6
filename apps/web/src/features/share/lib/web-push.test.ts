import { describe, expect, it } from 'vitest';
import { base64UrlToBytes } from './web-push.ts';

describe('base64url to bytes', () => {
  it('decodes the URL-safe alphabet without padding', () => {
    // 0xfb 0xff 0xbf is "-_-_" in base64url ("+/+/" in base64).
    expect(Array.from(base64UrlToBytes('-_-_'))).toEqual([0xfb, 0xff, 0xbf]);
    expect(Array.from(base64UrlToBytes('AQID'))).toEqual([1, 2, 3]);
    expect(Array.from(base64UrlToBytes('AQ'))).toEqual([1]);
    expect(Array.from(base64UrlToBytes('AQI'))).toEqual([1, 2]);
    expect(Array.from(base64UrlToBytes('AQI='))).toEqual([1, 2]);
  });

  it('gives the 65 bytes of an uncompressed P-256 VAPID key', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : (i * 37) % 256));
    const key = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(key).not.toContain('=');
    const decoded = base64UrlToBytes(key);
    expect(decoded).toBeInstanceOf(Uint8Array);
    expect(Array.from(decoded)).toEqual(Array.from(bytes));
  });
});
