import type { ScanResponse } from '@giftlens/contract/recipient';
import { paths } from '../../../config/paths.ts';
import { RECIPIENT_KEYS, writeJson, type SignedMessageUrl } from '../../../lib/recipient-storage.ts';

type Details = NonNullable<ScanResponse['giftDetails']>;

/** The message page's address for a revealed gift, or null when no message is available yet. */
export function messageLink(details: Details | null): string | null {
  if (!details) return null;
  // A text message has no media link (messageUrl null) but its page is available: giftMessageUrl says so.
  return details.messageUrl ?? details.giftMessageUrl;
}

/**
 * Saves what a matching scan revealed, in the browser storage the message page reads: gift_{id} and giftDetails
 * (who sent it to whom), and signedMessageUrl, which opens that page for 5 minutes and only for this gift.
 */
export function storeReveal(giftId: string, details: Details, url: string): void {
  writeJson('local', RECIPIENT_KEYS.gift(giftId), {
    giftId,
    senderName: details.senderName,
    senderEmail: details.senderEmail,
    recipientName: details.recipientName,
    recipientEmail: details.recipientEmail,
    giftImageUrl: details.giftImageUrl,
  });
  writeJson('local', RECIPIENT_KEYS.giftDetails, {
    giftId,
    senderName: details.senderName,
    recipientName: details.recipientName,
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
  // The answer repeats its decision and gift under the specification's other names (matchFound, openAIResponse,
  // matchResult.giftId): the server sets them alike, the page reads one.
  const matched = res.success && res.matchResult.matched;
  const giftId = res.giftId ?? fallbackGiftId;
  if (!matched || !giftId) return null;
  const link = messageLink(res.giftDetails);
  if (res.giftDetails && link) {
    storeReveal(giftId, res.giftDetails, link);
    return paths.giftMessage.href(giftId);
  }
  return paths.matchResult.href(giftId);
}
