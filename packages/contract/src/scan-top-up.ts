// More scans for a paid gift (issue 40): apart from plans.ts, which every page's first bundle holds; only the
// screens and server modules that sell or show a top-up load this. No zod here.
import type { Currency, Region } from './plans.ts';

/** How many scans one top-up adds, while the gift's plan is valid. */
export const SCAN_TOP_UP_SCANS = 5;

export interface ScanTopUp {
  scans: number;
  /** In the currency's minor unit; the server owns it, as it does plan prices. */
  amountMinor: number;
  currency: Currency;
  /** Display price, e.g. "₹29". */
  price: string;
}

/** The price of a top-up in each region's currency. */
export const SCAN_TOP_UPS: Record<Currency, ScanTopUp> = {
  INR: { scans: SCAN_TOP_UP_SCANS, amountMinor: 2900, currency: 'INR', price: '₹29' },
  USD: { scans: SCAN_TOP_UP_SCANS, amountMinor: 99, currency: 'USD', price: '$0.99' },
};

export const scanTopUpForRegion = (region: Region): ScanTopUp => SCAN_TOP_UPS[region === 'IN' ? 'INR' : 'USD'];

