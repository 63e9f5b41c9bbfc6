import { M } from '@giftlens/contract/messages';
import { PlansResponse } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /api/plans?country=XX: the regional price list, owned by the server. */
export function usePlans(country: string | null) {
  return useQuery({
    queryKey: ['plans', country],
    queryFn: ({ signal }) =>
      apiRequest('GET', `${API.plans}?country=${encodeURIComponent(country ?? '')}`, undefined, {
        fallbackError: M.generic,
        schema: PlansResponse,
        signal,
      }),
    enabled: country !== null,
    staleTime: 10 * 60 * 1000,
  });
}
