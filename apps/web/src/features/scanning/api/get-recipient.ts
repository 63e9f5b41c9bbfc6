import { RECIPIENT_API, RecipientNameResponse, RM } from '@giftlens/contract/recipient';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET recipient/{recipientId}: the name to greet (needs that recipient's session). */
export function getRecipient(recipientId: string, signal?: AbortSignal) {
  return apiRequest('GET', RECIPIENT_API.recipient(recipientId), undefined, {
    fallbackError: RM.somethingWrong,
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
