import { useQuery } from '@tanstack/react-query';
import { regionForCountry, type Region } from '@giftlens/contract/plans';
import { DEFAULT_COUNTRY_CODE, preferredChannel, type PreferredChannel } from './countries.ts';
import { detectCountry, type CountryInfo } from './detect-country.ts';

export interface UseCountryResult extends CountryInfo {
  /** True until detection has answered; the fields hold the US defaults meanwhile. */
  isDetecting: boolean;
  region: Region;
  preferredChannel: PreferredChannel;
}

const FALLBACK: CountryInfo = { countryCode: DEFAULT_COUNTRY_CODE, source: 'default-fallback' };

/** The visitor's country, detected once per page load and shared by every screen that asks. */
export function useCountry(): UseCountryResult {
  const query = useQuery({
    queryKey: ['country'],
    queryFn: () => detectCountry(),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  const info = query.data ?? FALLBACK;
  return {
    ...info,
    isDetecting: query.isPending,
    region: regionForCountry(info.countryCode),
    preferredChannel: preferredChannel(info.countryCode),
  };
}
