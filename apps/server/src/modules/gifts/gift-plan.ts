import { findPlan, type Plan } from '@giftlens/contract/plans';
import type { Gift } from './gifts.table.ts';

/** The one lookup of a gift's plan; an unknown plan id in a stored row is a server fault, not the client's. */
export function planOf(gift: Pick<Gift, 'id' | 'plan_id'>): Plan {
  const plan = findPlan(gift.plan_id);
  if (!plan) throw new Error(`Gift ${gift.id} has unknown plan ${gift.plan_id}`);
  return plan;
}
