import { LooseSuccessBody } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useRefreshMyGifts } from './my-gifts.ts';

/** DELETE /api/gift-sender/gifts/{giftId}: the gift and everything of it, files included (a paid order's record stays). */
export function deleteGift(giftId: string) {
  return apiRequest('DELETE', API.senderGift(giftId), undefined, { fallbackError: texts.sender.generic, schema: LooseSuccessBody });
}

export function useDeleteGift() {
  const refresh = useRefreshMyGifts();
  return useMutation({ mutationFn: deleteGift, onSuccess: refresh });
}
