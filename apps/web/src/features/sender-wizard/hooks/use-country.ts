import { DEFAULT_COUNTRY } from '@giftlens/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { getGeo } from '../api/get-geo.ts';

/** The region part of the browser's locale ("en-IN" → "IN"), if it names one. */
function localeCountry(): string | null {
  try {
    const region = new Intl.Locale(navigator.language).region;
    return region && /^[A-Z]{2}$/.test(region) ? region : null;
  } catch {
    return null;
  }
}

/**
 * The sender's country for the price list: the server's GET /api/geo first, then the browser locale, then US.
 * Kept in this one hook so the shared country feature can replace it later.
 */
export function useCountry(): string | undefined {
  const { data, isPending } = useQuery({
    queryKey: ['geo'],
    queryFn: ({ signal }) => getGeo(signal),
    staleTime: Infinity,
    retry: false,
  });
  if (isPending) return undefined;
  return data?.countryCode?.toUpperCase() ?? localeCountry() ?? DEFAULT_COUNTRY;
}
