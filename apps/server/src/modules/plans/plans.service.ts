import { plansForRegion, regionForCountry, type Plan } from '@giftlens/contract/plans';
import { scanTopUpForRegion } from '@giftlens/contract/scan-top-up';

/** The server owns prices: clients display what this returns and never send an amount back. */
export function plansForCountry(countryCode: string | undefined) {
  const region: Plan['region'] = regionForCountry(countryCode);
  const topUp = scanTopUpForRegion(region);
  return { region, plans: plansForRegion(region), scanTopUp: { scans: topUp.scans, price: topUp.price } };
}
