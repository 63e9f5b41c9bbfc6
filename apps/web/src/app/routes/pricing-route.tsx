import { countryName } from '../../features/country/countries.ts';
import { CountryMark } from '../../features/country/country-mark.tsx';
import { usePriceRegion } from '../../features/country/use-price-region.ts';
import { PricingPage } from '../../features/marketing/components/pricing-page.tsx';

/** /pricing: the marketing page, priced for the detected country until the visitor switches region. */
export function PricingRoute() {
  const prices = usePriceRegion();
  return (
    <PricingPage
      region={prices.region}
      onRegionChange={prices.choose}
      // The detected country explains the list until the visitor picks one; their choice then speaks for itself.
      countryLabel={prices.chosen ? null : <CountryMark code={prices.countryCode} name={countryName(prices.countryCode)} />}
    />
  );
}
