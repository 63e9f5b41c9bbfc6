import type { Plan } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { AppError } from '../../lib/errors.ts';
import { planOf } from '../gifts/gift-plan.ts';
import type { Gift } from '../gifts/gifts.table.ts';

/** When the plan's validity ends (from payment), or null when it never does. */
export function validUntil(gift: Gift, plan: Plan): number | null {
  if (plan.validityMs === null || gift.paid_at === null) return null;
  return Date.parse(gift.paid_at) + plan.validityMs;
}

/**
 * The plan rules a reveal must pass: only paid (active) gifts, within the plan's validity, with scans left.
 * The scan count itself is taken atomically on a match (claimScan); this is the cheap check before matching.
 */
export function assertRevealable(gift: Gift, now: Date): Plan {
  if (gift.status !== 'active') throw new AppError(403, 'gift_not_ready', texts.recipient.giftNotReady);
  // A message being converted (or one that could not be) is not revealable yet.
  if (gift.message_state === 'processing') throw new AppError(403, 'gift_preparing', texts.recipient.giftPreparing);
  if (gift.message_state === 'failed') throw new AppError(403, 'gift_not_ready', texts.recipient.giftNotReady);
  const plan = planOf(gift);
  const until = validUntil(gift, plan);
  if (until !== null && until <= now.getTime()) throw new AppError(410, 'gift_expired', texts.recipient.giftExpired);
  if (plan.scans !== null && gift.scans_used >= plan.scans) throw scanLimitReached();
  return plan;
}

export const scanLimitReached = () => new AppError(403, 'scan_limit_reached', texts.recipient.scanLimitReached);
