import { texts } from '@giftlens/contract/texts';
import { CreateOrderResponse } from '@giftlens/contract/payments';
import { API } from '@giftlens/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST create-order: the server prices the gift's plan; the client never sends an amount. */
export function createOrder(giftId: string) {
  return apiRequest('POST', API.createOrder, { giftId }, { fallbackError: texts.sender.generic, schema: CreateOrderResponse });
}

/** One order per visit to the checkout page, created once the gift is ready to be paid. */
export function useCreateOrder(giftId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['payment-order', giftId],
    queryFn: () => createOrder(giftId),
    enabled,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}
