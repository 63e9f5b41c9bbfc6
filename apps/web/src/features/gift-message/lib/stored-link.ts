import { SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import { readSignedMessageUrl, type SignedMessageUrl } from '../../../lib/recipient-storage.ts';

export type StoredLinkCheck =
  | { ok: true; link: SignedMessageUrl }
  | { ok: false; reason: 'missing' | 'expired' };

/** The link saved by the scan must be for this gift and younger than 5 minutes. */
export function checkStoredLink(giftId: string): StoredLinkCheck {
  const link = readSignedMessageUrl();
  if (!link || link.giftId !== giftId) return { ok: false, reason: 'missing' };
  const age = Date.now() - link.timestamp;
  if (age < 0 || age >= SIGNED_URL_TTL_MS) return { ok: false, reason: 'expired' };
  return { ok: true, link };
}
