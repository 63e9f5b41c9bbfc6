import { texts } from '@giftlens/contract/texts';
import { CreateOrderResponse } from '@giftlens/contract/payments';
import { SCAN_TOP_UP_SCANS } from '@giftlens/contract/scan-top-up';
import { API } from '@giftlens/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** What is paid for: the gift's plan, or 5 more scans for a paid gift (issue 40). */
export type CheckoutPurpose = 'gift' | 'scans';

/** POST create-order: the server prices the gift's plan (or the scans); the client never sends an amount. */
export function createOrder(giftId: string, purpose: CheckoutPurpose = 'gift') {
  const body = purpose === 'scans' ? { giftId, purpose, scans: SCAN_TOP_UP_SCANS } : { giftId };
  return apiRequest('POST', API.createOrder, body, { fallbackError: texts.sender.generic, schema: CreateOrderResponse });
}

/** One order per visit to the checkout page, created once the gift is ready to be paid. */
export function useCreateOrder(giftId: string, enabled: boolean, purpose: CheckoutPurpose = 'gift') {
  return useQuery({
    queryKey: ['payment-order', giftId, purpose],
    queryFn: () => createOrder(giftId, purpose),
    enabled,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}
