import { RemindersResponse } from '@giftlens/contract/my-gifts';
import { GIFT_EXTRAS_API } from '@giftlens/contract/gift-extras-api';
import { texts } from '@giftlens/contract/texts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useRefreshMyGifts } from './my-gifts.ts';

/** PUT gifts/{giftId}/reminders: the gift's reminders on or off (issue 40). */
export function setReminders({ giftId, enabled }: { giftId: string; enabled: boolean }) {
  return apiRequest('PUT', GIFT_EXTRAS_API.giftReminders(giftId), { enabled }, { fallbackError: texts.sender.generic, schema: RemindersResponse });
}

export function useSetReminders() {
  const refresh = useRefreshMyGifts();
  return useMutation({ mutationFn: setReminders, onSuccess: refresh });
}
