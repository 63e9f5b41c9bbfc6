import { deriveKey, hmacHex, safeEqual } from '../../lib/crypto.ts';

/**
 * The buyer's record link of a merchant's gift (decision 058): `{PUBLIC_ORIGIN}/record/{giftId}{mac}`, the MAC an
 * HMAC of the gift's id under a key derived from SESSION_SECRET (128 bits shown), so nothing is stored and the same
 * link is answered again to a repeated call. A changed SESSION_SECRET ends every record link (as it ends sessions).
 */
export function createRecordLinks(sessionSecret: string, publicOrigin: string) {
  const key = deriveKey(sessionSecret, 'merchant-record-links');
  const mac = (giftId: string) => hmacHex(key, giftId).slice(0, 32);
  const token = (giftId: string) => `${giftId}${mac(giftId)}`;
  return {
    token,
    url: (giftId: string) => `${publicOrigin}/record/${token(giftId)}`,
    /** The gift of a well-formed token with the right MAC, else null. */
    giftIdOf(value: string): string | null {
      if (!/^[0-9a-f]{64}$/.test(value)) return null;
      const giftId = value.slice(0, 32);
      return safeEqual(value.slice(32), mac(giftId)) ? giftId : null;
    },
  };
}

export type RecordLinks = ReturnType<typeof createRecordLinks>;
