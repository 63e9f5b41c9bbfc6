import { LOWEST_PRICES } from '@giftlens/contract/lowest-prices';
import { useSyncExternalStore } from 'react';
import { readChosenRegion } from '../../features/country/price-region-key.ts';
import { LandingPage } from '../../features/landing/components/landing-page.tsx';
import { HOW_IT_WORKS_ID } from '../../features/layout/scroll.ts';

/** Nothing on `/` switches the price list: it is read as the page opens (after the prerendered HTML's hydration). */
const noSwitchHere = () => () => undefined;

/**
 * `/`: the landing page, its "From …" in the price list the visitor chose (issue 37: it said $1.99 after India was
 * chosen on /pricing or at the plan step). Until one is chosen (and in the prerendered HTML), the US list's.
 */
export function LandingRoute() {
  const region = useSyncExternalStore(noSwitchHere, readChosenRegion, () => null) ?? 'US';
  return <LandingPage howItWorksId={HOW_IT_WORKS_ID} fromPrice={LOWEST_PRICES[region]} />;
}
