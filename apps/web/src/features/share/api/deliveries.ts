import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { DeliveriesResponse } from '@giftlens/contract/scheduling';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { isInFlight } from '../../../lib/delivery-status.ts';

/** While a delivery is on its way the list is asked again this often, so the page shows when it was sent. */
const DELIVERIES_POLL_MS = 10_000;

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
    refetchInterval: (query) => (query.state.data?.deliveries.some(isInFlight) ? DELIVERIES_POLL_MS : false),
  });
}

/** After any change to a delivery: ask for the list again (not awaited, so the caller's toast is not held up). */
export function useRefreshDeliveries(giftId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(giftId) });
}
