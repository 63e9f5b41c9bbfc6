import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import { DeliveryResponse } from '@giftlens/contract/scheduling';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useRefreshDeliveries } from './deliveries.ts';

/** DELETE /api/scheduled-messages/{id}: the delivery is cancelled and will not be sent. */
export function cancelDelivery(id: string) {
  return apiRequest('DELETE', API.scheduledMessage(id), undefined, {
    fallbackError: M.generic,
    schema: DeliveryResponse,
  });
}

export function useCancelDelivery(giftId: string) {
  const refresh = useRefreshDeliveries(giftId);
  return useMutation({ mutationFn: cancelDelivery, onSuccess: refresh });
}
