import type { Region } from '@giftlens/contract/plans';
import { useSyncExternalStore } from 'react';
import { PRICE_REGION_KEY, readChosenRegion } from './price-region-key.ts';

export { PRICE_REGION_KEY };

const listeners = new Set<() => void>();
/** The choice when sessionStorage cannot be written (disabled storage): this page only. */
let memory: Region | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Remembers the buyer's choice for the session and tells every screen showing prices. */
export function choosePriceRegion(region: Region): void {
  try {
    window.sessionStorage.setItem(PRICE_REGION_KEY, region);
  } catch {
    // Storage disabled: the choice holds on this page only.
    memory = region;
  }
  listeners.forEach((l) => l());
}

/** The price list the buyer chose this session (null: none chosen), following every later switch. */
export function useChosenPriceRegion(): Region | null {
  return useSyncExternalStore(subscribe, () => readChosenRegion() ?? memory, () => null);
}
