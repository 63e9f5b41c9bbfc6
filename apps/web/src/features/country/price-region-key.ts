import type { Region } from '@giftlens/contract/plans';

/** The region the buyer switched to, kept for the browser session (sessionStorage). */
export const PRICE_REGION_KEY = 'priceRegion';

/**
 * The price list the buyer chose this session, read from sessionStorage (null: none, or storage disabled). Apart
 * from chosen-region.ts's store so the landing page, in the first bundle, reads it without the store.
 */
export function readChosenRegion(): Region | null {
  try {
    const value = window.sessionStorage.getItem(PRICE_REGION_KEY);
    return value === 'IN' || value === 'US' ? value : null;
  } catch {
    return null;
  }
}
