import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { DeliveryResponse, type ChangeDeliveryRequest } from '@giftlens/contract/scheduling';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { useRefreshDeliveries } from './deliveries.ts';

/** PATCH /api/scheduled-messages/{id}: a new time and/or contact for a pending or failed delivery. */
export function changeDelivery({ id, body }: { id: string; body: ChangeDeliveryRequest }) {
  return apiRequest('PATCH', API.scheduledMessage(id), body, {
    fallbackError: texts.sender.scheduleFailed,
    schema: DeliveryResponse,
  });
}

export function useChangeDelivery(giftId: string) {
  const refresh = useRefreshDeliveries(giftId);
  return useMutation({ mutationFn: changeDelivery, onSuccess: refresh });
}
