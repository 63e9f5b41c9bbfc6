import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { DeliveryResponse } from '@giftlens/contract/scheduling';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** DELETE /api/scheduled-messages/{id}: the delivery is cancelled and will not be sent. */
export function cancelDelivery(id: string) {
  return apiRequest('DELETE', API.scheduledMessage(id), undefined, {
    fallbackError: texts.sender.generic,
    schema: DeliveryResponse,
  });
}

/**
 * Cancels a delivery, then runs `refresh`: the share page and My Gifts each pass the refresh of their own list. A
 * refresh that returns a promise is waited for, so the cancel resolves once that list no longer shows the delivery.
 */
export function useCancelDelivery(refresh: () => unknown) {
  return useMutation({
    mutationFn: async (id: string) => {
      const res = await cancelDelivery(id);
      await refresh();
      return res;
    },
  });
}
