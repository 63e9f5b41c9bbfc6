import { RecipientNameResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET recipient/{recipientId}: the name to greet (needs that recipient's session). */
export function getRecipient(recipientId: string, signal?: AbortSignal) {
  return apiRequest('GET', API.recipient(recipientId), undefined, {
    fallbackError: texts.recipient.somethingWrong,
    schema: RecipientNameResponse,
    signal,
  });
}

export function useRecipientName(recipientId: string | undefined) {
  return useQuery({
    queryKey: ['recipient', recipientId ?? ''],
    queryFn: ({ signal }) => getRecipient(recipientId ?? '', signal),
    enabled: Boolean(recipientId),
    retry: false,
  });
}
