import { lowestPrice } from '@giftlens/contract/plans';
import { useChosenPriceRegion } from '../../features/country/chosen-region.ts';
import { LandingPage } from '../../features/landing/components/landing-page.tsx';
import { HOW_IT_WORKS_ID } from '../../features/layout/scroll.ts';

/**
 * `/`: the landing page, its "From …" in the price list the visitor chose (issue 37: it said $1.99 after India was
 * chosen). Until one is chosen (and in the prerendered HTML), the US list's.
 */
export function LandingRoute() {
  const region = useChosenPriceRegion() ?? 'US';
  return <LandingPage howItWorksId={HOW_IT_WORKS_ID} fromPrice={lowestPrice(region)} />;
}
