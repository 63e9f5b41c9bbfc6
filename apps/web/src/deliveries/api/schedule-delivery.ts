import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { ScheduleResponse, type ScheduleRequest } from '@giftlens/contract/scheduling';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { useRefreshDeliveries } from './deliveries.ts';

/** POST /api/scheduled-messages: stores the delivery; the server sends it at the chosen instant. */
export function scheduleDelivery(body: ScheduleRequest) {
  return apiRequest('POST', API.scheduledMessages, body, {
    fallbackError: texts.sender.scheduleFailed,
    schema: ScheduleResponse,
  });
}

export function useScheduleDelivery(giftId: string) {
  const refresh = useRefreshDeliveries(giftId);
  return useMutation({ mutationFn: scheduleDelivery, onSuccess: refresh });
}
