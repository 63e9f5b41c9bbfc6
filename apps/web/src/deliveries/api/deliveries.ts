import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { DeliveriesResponse } from '@giftlens/contract/scheduling';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { deliveriesPollMs } from '../lib/delivery-status.ts';

const deliveriesQueryKey = (giftId: string) => ['deliveries', giftId] as const;

/** GET /api/scheduled-messages?giftId=…: the gift's deliveries (newest first) and whether WhatsApp can be used. */
export function getDeliveries(giftId: string, signal?: AbortSignal) {
  return apiRequest('GET', `${API.scheduledMessages}?giftId=${encodeURIComponent(giftId)}`, undefined, {
    fallbackError: texts.sender.generic,
    schema: DeliveriesResponse,
    signal,
  });
}

export function useDeliveries(giftId: string) {
  return useQuery({
    queryKey: deliveriesQueryKey(giftId),
    queryFn: ({ signal }) => getDeliveries(giftId, signal),
    // While a delivery is on its way, so the page says "Sent" once it is: every second while one is due now.
    refetchInterval: (query) => deliveriesPollMs(query.state.data?.deliveries ?? [], Date.now()),
  });
}

/** After any change to a delivery: ask for the list again (not awaited, so the caller's toast is not held up). */
export function useRefreshDeliveries(giftId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(giftId) });
}
