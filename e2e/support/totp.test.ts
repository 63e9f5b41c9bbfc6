import { expect, test } from 'vitest';
import { totp } from './totp.ts';

// RFC 6238 appendix B, SHA-1: the secret "12345678901234567890" (base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ), the
// last 6 of its 8 digits.
test('the RFC 6238 test vectors (SHA-1, 6 digits)', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  expect(totp(secret, 59_000)).toBe('287082');
  expect(totp(secret, 1_111_111_109_000)).toBe('081804');
  expect(totp(secret, 1_234_567_890_000)).toBe('005924');
  expect(totp(secret, 20_000_000_000_000)).toBe('353130');
});
