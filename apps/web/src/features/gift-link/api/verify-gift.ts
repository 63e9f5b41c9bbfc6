import { VerifyGiftResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, ApiError } from '../../../lib/api-client.ts';

/** GET verify-gift/{giftId}: the greeting's name and whether the gift is active. */
export function verifyGift(giftId: string, signal?: AbortSignal) {
  return apiRequest('GET', API.verifyGift(giftId), undefined, {
    fallbackError: texts.recipient.verifyGiftHttpFailed,
    schema: VerifyGiftResponse,
    signal,
  });
}

export function useVerifyGift(giftId: string | undefined) {
  return useQuery({
    queryKey: ['verify-gift', giftId ?? ''],
    queryFn: ({ signal }) => verifyGift(giftId ?? '', signal),
    enabled: Boolean(giftId),
    retry: false,
    // Activation happens on the sender's side (payment); always ask again when the link is reopened.
    staleTime: 0,
  });
}

/** The spec's failure texts: a dead link, any other non-OK answer, an answer without success, or anything else. */
export function verifyGiftErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'bad_response') return texts.recipient.verificationFailed;
    // No such gift (never was, or deleted): say so, not "try again later" (kept for real failures).
    if (err.status === 404) return texts.recipient.giftLinkGone;
    // Refunded or taken down (410): the server's own words, "This gift is no longer available." (issue 37).
    if (err.status === 410) return texts.recipient.giftUnavailable;
    if (err.status > 0) return texts.recipient.verifyGiftHttpFailed;
  }
  return texts.recipient.unexpected;
}
