import { countryName } from '../../features/country/countries.ts';
import { CountryMark } from '../../features/country/country-mark.tsx';
import { useCountry } from '../../features/country/use-country.ts';
import { PricingPage } from '../../features/marketing/components/pricing-page.tsx';

/** /pricing: the marketing page, priced for the country the country feature detects. */
export function PricingRoute() {
  const country = useCountry();
  return (
    <PricingPage
      countryCode={country.isDetecting ? null : country.countryCode}
      countryLabel={<CountryMark code={country.countryCode} name={countryName(country.countryCode)} />}
    />
  );
}
