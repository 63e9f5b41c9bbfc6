import { GiftMessageResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET gift-message/{giftId}: the message and reaction info; the server answers only after a matching scan. */
export function getGiftMessage(giftId: string, signal?: AbortSignal) {
  return apiRequest('GET', API.giftMessage(giftId), undefined, {
    fallbackError: texts.recipient.fetchMessageFailed,
    schema: GiftMessageResponse,
    signal,
  });
}

export function useGiftMessage(giftId: string | undefined) {
  return useQuery({
    queryKey: ['gift-message', giftId ?? ''],
    queryFn: ({ signal }) => getGiftMessage(giftId ?? '', signal),
    enabled: Boolean(giftId),
    retry: false,
    // The answer holds a signed link that expires: never reuse an old one.
    staleTime: 0,
    gcTime: 0,
  });
}
