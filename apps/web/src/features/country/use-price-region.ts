import type { Region } from '@giftlens/contract/plans';
import { useSyncExternalStore } from 'react';
import { useCountry } from './use-country.ts';

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

export interface PriceRegion {
  /** The price list shown: the buyer's choice this session, else the detected country's; undefined while detecting. */
  region: Region | undefined;
  /** Whether the buyer chose it (else it follows the detected country). */
  chosen: boolean;
  /** The detected country, for "Prices for [IN] India". */
  countryCode: string;
  isDetecting: boolean;
  choose: (region: Region) => void;
}

/**
 * Which price list to show: India (₹) or everywhere else ($). The detected country picks it until the buyer
 * switches; the switch is remembered for the session. Only the list shown depends on it: the server prices every
 * order from the plan's own region.
 */
export function usePriceRegion(): PriceRegion {
  const country = useCountry();
  const chosen = useSyncExternalStore(subscribe, () => readChosen() ?? memory, () => null);
  return {
    region: chosen ?? (country.isDetecting ? undefined : country.region),
    chosen: chosen !== null,
    countryCode: country.countryCode,
    isDetecting: country.isDetecting,
    choose: choosePriceRegion,
  };
}
