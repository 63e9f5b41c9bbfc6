import { plansForRegion, regionForCountry, type Plan } from '@giftlens/contract/plans';

/** The server owns prices: clients display what this returns and never send an amount back. */
export function plansForCountry(countryCode: string | undefined): { region: Plan['region']; plans: Plan[] } {
  const region = regionForCountry(countryCode);
  return { region, plans: plansForRegion(region) };
}
