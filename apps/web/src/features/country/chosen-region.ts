import type { Region } from '@giftlens/contract/plans';
import { useSyncExternalStore } from 'react';

/** The region the buyer switched to, kept for the browser session (sessionStorage). */
export const PRICE_REGION_KEY = 'priceRegion';

const listeners = new Set<() => void>();
/** The choice when sessionStorage cannot be written (disabled storage): this page only. */
let memory: Region | null = null;

function readChosen(): Region | null {
  try {
    const value = window.sessionStorage.getItem(PRICE_REGION_KEY);
    return value === 'IN' || value === 'US' ? value : null;
  } catch {
    return null;
  }
}

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

/**
 * The price list the buyer chose this session (null: none chosen), following every later switch. Light on purpose:
 * no country detection, no query client, so the prerendered landing page can show it (its HTML says null).
 */
export function useChosenPriceRegion(): Region | null {
  return useSyncExternalStore(subscribe, () => readChosen() ?? memory, () => null);
}
