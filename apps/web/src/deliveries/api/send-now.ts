import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { DeliveryResponse, type SendNowRequest } from '@giftlens/contract/scheduling';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { useRefreshDeliveries } from './deliveries.ts';

/** POST /api/scheduled-messages/send-now: a delivery due at once; the server's worker sends it within seconds. */
export function sendNow(body: SendNowRequest) {
  return apiRequest('POST', API.sendNow, body, { fallbackError: texts.sender.generic, schema: DeliveryResponse });
}

export function useSendNow(giftId: string) {
  const refresh = useRefreshDeliveries(giftId);
  return useMutation({ mutationFn: sendNow, onSuccess: refresh });
}
