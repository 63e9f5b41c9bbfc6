import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { DeliveryResponse } from '@giftlens/contract/scheduling';
import { apiRequest } from './api-client.ts';

/**
 * DELETE /api/scheduled-messages/{id}: the delivery is cancelled and will not be sent. Kept here because the share
 * page and My Gifts both cancel deliveries (each refreshes its own list afterwards).
 */
export function cancelDelivery(id: string) {
  return apiRequest('DELETE', API.scheduledMessage(id), undefined, {
    fallbackError: texts.sender.generic,
    schema: DeliveryResponse,
  });
}
