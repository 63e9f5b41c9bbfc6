import { texts } from '@giftlens/contract/texts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { verifyGiftErrorText } from './verify-gift.ts';

describe('gift link failure texts', () => {
  it('uses the spec text for each kind of failure', () => {
    expect(verifyGiftErrorText(new ApiError('x', 500, 'internal'))).toBe(texts.recipient.verifyGiftHttpFailed);
    expect(verifyGiftErrorText(new ApiError('x', 503, 'service_unavailable'))).toBe(texts.recipient.verifyGiftHttpFailed);
    expect(verifyGiftErrorText(new ApiError('x', 200, 'bad_response'))).toBe(texts.recipient.verificationFailed);
    expect(verifyGiftErrorText(new ApiError('x', 0, 'network_error'))).toBe(texts.recipient.unexpected);
    expect(verifyGiftErrorText(new Error('boom'))).toBe(texts.recipient.unexpected);
  });

  it('says a refunded or taken-down gift (410) is no longer available, not to try again later (issue 37)', () => {
    expect(verifyGiftErrorText(new ApiError(texts.recipient.giftUnavailable, 410, 'gift_unavailable'))).toBe('This gift is no longer available.');
  });

  it('says a link to a gift that does not exist or was deleted is dead, not to try again later', () => {
    expect(verifyGiftErrorText(new ApiError('Gift not found', 404, 'gift_not_found'))).toBe(texts.recipient.giftLinkGone);
    expect(texts.recipient.giftLinkGone).toBe("This gift link doesn't exist or has been removed.");
  });
});
