import type { GiftMessageResponse } from '@giftlens/contract/recipient';

/** The message page's answer (GET gift-message) for a test: Meera's text message to Priya, with `over` on top. */
export const giftMessageResponse = (giftId: string, over: Partial<GiftMessageResponse> = {}): GiftMessageResponse => ({
  success: true,
  giftId,
  messageType: 'text',
  messageUrl: null,
  posterUrl: null,
  text: 'Happy birthday, Priya! Love, Meera',
  senderName: 'Meera',
  reactionsEnabled: false,
  hasReaction: false,
  planDetails: { planName: 'Premium' },
  recipientId: null,
  recipientName: 'Priya',
  recipientEmail: null,
  contributions: [],
  combinedDownloadUrl: null,
  ...over,
});
