import type { Plan } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { AppError } from '../../lib/errors.ts';
import { planOf, scansAllowed, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import type { Gift } from '../gifts/gifts.table.ts';

export { validUntil };

/**
 * The plan rules a reveal must pass: only paid (active) gifts, within the plan's validity, with scans left.
 * The scan count itself is taken atomically on a match (claimScan); this is the cheap check before matching.
 */
export function assertRevealable(gift: Gift, now: Date): Plan {
  if (gift.status !== 'active') throw new AppError(403, 'gift_not_ready', texts.recipient.giftNotReady);
  if (withdrawn(gift)) throw giftUnavailable();
  // A message being converted (or one that could not be) is not revealable yet.
  if (gift.message_state === 'processing') throw new AppError(403, 'gift_preparing', texts.recipient.giftPreparing);
  if (gift.message_state === 'failed') throw new AppError(403, 'gift_not_ready', texts.recipient.giftNotReady);
  const plan = planOf(gift);
  const until = validUntil(gift, plan);
  if (until !== null && until <= now.getTime()) throw new AppError(410, 'gift_expired', texts.recipient.giftExpired);
  const allowed = scansAllowed(gift, plan);
  if (allowed !== null && gift.scans_used >= allowed) throw scanLimitReached();
  return plan;
}

/** Refunded or taken down by staff. */
export const giftUnavailable = () => new AppError(410, 'gift_unavailable', texts.recipient.giftUnavailable);

export const scanLimitReached = () => new AppError(403, 'scan_limit_reached', texts.recipient.scanLimitReached);
