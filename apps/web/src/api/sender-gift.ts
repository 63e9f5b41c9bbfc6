import { GiftSummaryResponse, type GiftSummary } from '@giftlens/contract/sender';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client.ts';

/** The summary, with the message's processing state (the share page says "Processing your message"). */
export type SenderGift = GiftSummary;

/** While the message is being converted, the summary is asked again this often. */
const PROCESSING_POLL_MS = 5_000;

/**
 * GET /api/gift-sender/gifts/{giftId}: the session's own gift, used by the message step, checkout and share
 * screens alike (shared: several features read the same summary).
 */
export async function getSenderGift(giftId: string, signal?: AbortSignal): Promise<SenderGift> {
  const res = await apiRequest('GET', API.senderGift(giftId), undefined, {
    fallbackError: texts.sender.giftNotFound,
    schema: GiftSummaryResponse,
    signal,
  });
  return res.gift;
}

export const senderGiftQueryKey = (giftId: string) => ['sender-gift', giftId] as const;

export function useSenderGift(giftId: string | undefined) {
  return useQuery({
    queryKey: senderGiftQueryKey(giftId ?? ''),
    queryFn: ({ signal }) => getSenderGift(giftId ?? '', signal),
    enabled: Boolean(giftId),
    retry: false,
    refetchInterval: (query) => (query.state.data?.messageState === 'processing' ? PROCESSING_POLL_MS : false),
  });
}
