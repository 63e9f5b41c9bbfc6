import type { Region } from '@giftlens/contract/plans';
import { choosePriceRegion, useChosenPriceRegion } from './chosen-region.ts';
import { useCountry } from './use-country.ts';

export { choosePriceRegion, PRICE_REGION_KEY } from './chosen-region.ts';

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
  const chosen = useChosenPriceRegion();
  return {
    region: chosen ?? (country.isDetecting ? undefined : country.region),
    chosen: chosen !== null,
    countryCode: country.countryCode,
    isDetecting: country.isDetecting,
    choose: choosePriceRegion,
  };
}
