import { texts } from '@giftlens/contract/texts';
import { MyGiftsResponse, type MyGift } from '@giftlens/contract/my-gifts';
import { API } from '@giftlens/contract/routes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { createUrlKeeper } from '../lib/stable-urls.ts';

export const myGiftsQueryKey = ['my-gifts'] as const;

/** While a message or reaction is being converted or a delivery is about to go, the list is asked again this often. */
const BUSY_POLL_MS = 5_000;
/** A pending delivery due within this long counts as about to go. */
const DUE_SOON_MS = 60_000;
/** The list's media links are signed for an hour: the list is refreshed, and links replaced, within half of it. */
const LINKS_REFRESH_MS = 30 * 60 * 1000;

const urls = createUrlKeeper(LINKS_REFRESH_MS);

/** GET /api/gift-sender/gifts: the session's gifts, newest first (401 without a session). */
export async function getMyGifts(signal?: AbortSignal) {
  const res = await apiRequest('GET', API.myGifts, undefined, {
    fallbackError: texts.sender.generic,
    schema: MyGiftsResponse,
    signal,
  });
  // Same links as last time for the same files, so a refresh does not reload photos or restart a playing video.
  return { ...res, gifts: res.gifts.map(urls.gift) };
}

function busy(gift: MyGift, now: number): boolean {
  return (
    gift.messageState === 'processing' ||
    // A reaction being converted: shown as soon as it can be watched.
    gift.reactionState === 'processing' ||
    gift.deliveries.some(
      (d) => d.status === 'sending' || (d.status === 'pending' && Date.parse(d.scheduledDatetime) - now < DUE_SOON_MS),
    )
  );
}

export function useMyGifts() {
  return useQuery({
    queryKey: myGiftsQueryKey,
    queryFn: ({ signal }) => getMyGifts(signal),
    retry: false,
    // Coming back to the tab shows what happened meanwhile (opened, delivered, a reaction).
    refetchOnWindowFocus: true,
    refetchInterval: (query) => {
      const now = Date.now();
      return (query.state.data?.gifts ?? []).some((g) => busy(g, now)) ? BUSY_POLL_MS : LINKS_REFRESH_MS;
    },
  });
}

/** Ask for the list again; resolves once it is back, so a caller can toast when the card is gone. */
export function useRefreshMyGifts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: myGiftsQueryKey });
}
