import { M } from '@giftlens/contract/messages';
import { PlansResponse } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type { PlanView } from '@giftlens/contract/plans-api';

/** GET /api/plans?country=XX: the server owns the regional price list. */
export function usePlans(country: string | undefined) {
  return useQuery({
    queryKey: ['plans', country],
    queryFn: ({ signal }) =>
      apiRequest('GET', `${API.plans}?country=${encodeURIComponent(country ?? '')}`, undefined, {
        fallbackError: M.generic,
        schema: PlansResponse,
        signal,
      }),
    enabled: Boolean(country),
    staleTime: 10 * 60 * 1000,
  });
}
