import type { Region } from './plans.ts';

/**
 * Each price list's lowest display price, for the landing page's "From …" (issue 37): written out here so the
 * prerendered first page does not load the plans' whole table (its 110 KB budget, decision 046). test/plans.test.ts
 * holds it to the plans' own lowestPrice.
 */
export const LOWEST_PRICES: Readonly<Record<Region, string>> = { IN: '₹29', US: '$1.99' };
