import type { ScanResponse } from '@giftlens/contract/recipient';
import { paths } from '../../../config/paths.ts';
import { RECIPIENT_KEYS, writeJson, type SignedMessageUrl } from '../../../lib/recipient-storage.ts';

type Details = NonNullable<ScanResponse['giftDetails']>;

/** The message page's address for a revealed gift, or null when no message is available yet. */
export function messageLink(details: Details | null): string | null {
  if (!details) return null;
  // A text message has no media link (messageUrl null) but its page is available: giftMessageUrl says so.
  return details.messageUrl ?? details.giftMessageUrl ?? details.gifts_message_url ?? null;
}

/**
 * Saves what a matching scan revealed (recipient-side §3): gift_{id} and giftDetails for the message page,
 * and signedMessageUrl, which opens that page for 5 minutes and only for this gift.
 */
export function storeReveal(giftId: string, details: Details, url: string): void {
  writeJson('local', RECIPIENT_KEYS.gift(giftId), {
    giftId,
    senderName: details.senderName || details.sender_name,
    senderEmail: details.senderEmail,
    recipientName: details.recipientName || details.recipient_name,
    recipientEmail: details.recipientEmail,
    giftImageUrl: details.giftImageUrl,
  });
  writeJson('local', RECIPIENT_KEYS.giftDetails, {
    giftId,
    senderName: details.senderName || details.sender_name,
    recipientName: details.recipientName || details.recipient_name,
    messageUrl: details.messageUrl,
  });
  const signed: SignedMessageUrl = { url, timestamp: Date.now(), giftId };
  writeJson('local', RECIPIENT_KEYS.signedMessageUrl, signed);
}

/**
 * A matching answer (a scan's, a live frame's or a backup code's): stores what it revealed and answers where to go
 * (the message page, or the match result when no message is available); null when it revealed nothing.
 */
export function revealedPath(res: ScanResponse, fallbackGiftId: string | null): string | null {
  const matched =
    res.success && (res.matchResult.matched || res.matchResult.matchFound || res.openAIResponse.content === 'yes');
  const giftId = res.giftId ?? res.matchResult.giftId ?? fallbackGiftId;
  if (!matched || !giftId) return null;
  const link = messageLink(res.giftDetails);
  if (res.giftDetails && link) {
    storeReveal(giftId, res.giftDetails, link);
    return paths.giftMessage.href(giftId);
  }
  return paths.matchResult.href(giftId);
}
