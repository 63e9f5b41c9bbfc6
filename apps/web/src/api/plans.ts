import { texts } from '@giftlens/contract/texts';
import { PlansResponse } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client.ts';

/**
 * GET /api/plans?country=XX: the regional price list, owned by the server (the pricing page and the sender's
 * plan step). Waits while the country is not known yet.
 */
export function usePlans(country: string | null | undefined) {
  return useQuery({
    queryKey: ['plans', country],
    queryFn: ({ signal }) =>
      apiRequest('GET', `${API.plans}?country=${encodeURIComponent(country ?? '')}`, undefined, {
        fallbackError: texts.sender.generic,
        schema: PlansResponse,
        signal,
      }),
    enabled: Boolean(country),
    staleTime: 10 * 60 * 1000,
    // Switching region keeps the list (and the switch with the focus in it) on screen until the other one is in.
    placeholderData: keepPreviousData,
  });
}
