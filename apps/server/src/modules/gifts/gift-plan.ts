import { findPlan, type Plan } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { AppError } from '../../lib/errors.ts';
import type { Gift } from './gifts.table.ts';

/** The one lookup of a gift's plan; an unknown plan id in a stored row is a server fault, not the client's. */
/** When the gift's validity ends (from payment, or as staff extended it), or null when it never does. */
export function validUntil(gift: Pick<Gift, 'paid_at' | 'valid_until_override'>, plan: Plan): number | null {
  if (plan.validityMs === null || gift.paid_at === null) return null;
  const own = Date.parse(gift.paid_at) + plan.validityMs;
  return gift.valid_until_override ? Math.max(own, Date.parse(gift.valid_until_override)) : own;
}

/** The reveals the gift allows: the plan's plus what staff added (null: unlimited). */
export function scansAllowed(gift: Pick<Gift, 'extra_scans'>, plan: Plan): number | null {
  return plan.scans === null ? null : plan.scans + gift.extra_scans;
}

/**
 * Taken down by staff: frozen. Every change its sender asks for (message, photos, sending, sharing, scheduling, the
 * group, the backup code, deleting it or the account) answers 409, so what staff acted on stays as it was, until
 * staff lift the take-down.
 */
export function refuseIfTakenDown(gift: Pick<Gift, 'taken_down_at'>): void {
  if (gift.taken_down_at !== null) throw new AppError(409, 'gift_taken_down', texts.sender.giftTakenDown);
}

/** Refunded or taken down by staff: it opens no more. */
export const withdrawn = (gift: Pick<Gift, 'refunded_at' | 'taken_down_at'>) => gift.refunded_at !== null || gift.taken_down_at !== null;

export function planOf(gift: Pick<Gift, 'id' | 'plan_id'>): Plan {
  const plan = findPlan(gift.plan_id);
  if (!plan) throw new Error(`Gift ${gift.id} has unknown plan ${gift.plan_id}`);
  return plan;
}
