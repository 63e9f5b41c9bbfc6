import { countryName } from '../../features/country/countries.ts';
import { useCountry } from '../../features/country/use-country.ts';
import { PricingPage } from '../../features/marketing/components/pricing-page.tsx';

/** /pricing: the marketing page, priced for the country the country feature detects. */
export function PricingRoute() {
  const country = useCountry();
  return (
    <PricingPage
      countryCode={country.isDetecting ? null : country.countryCode}
      countryLabel={`${country.flag} ${countryName(country.countryCode)}`}
    />
  );
}
