import { afterEach, describe, expect, test, vi } from 'vitest';
import { jsonResponse } from '../../../test/render-route.tsx';
import { serveJson } from '../../../test/serve-json.ts';
import { discardReplacedDraft } from './discard-draft.ts';

// Issue 37, item 15: Back from the message step and a changed photo made a second draft.
const OLD = 'a'.repeat(32);
const summary = (status: 'draft' | 'message_uploaded') => ({
  success: true,
  gift: {
    giftId: OLD,
    status,
    recipientName: 'Maya',
    recipientEmail: 'maya@example.com',
    occasion: 'birthday',
    messageType: null,
    messageState: 'none',
    giftImageUrl: null,
    plan: { id: 'premium_us', name: 'Premium', price: '$1.99', currency: 'USD', amountMinor: 199, validity: '30 days' },
    paidAt: null,
    backupCode: null,
  },
});
const deleted = (fetch: ReturnType<typeof serveJson>) => fetch.mock.calls.filter(([, init]) => init?.method === 'DELETE').length;

afterEach(() => vi.restoreAllMocks());

describe('the draft a new details step replaces', () => {
  test('is deleted while it is still a draft', async () => {
    const fetch = serveJson({
      [`GET /api/gift-sender/gifts/${OLD}`]: () => jsonResponse(summary('draft')),
      [`DELETE /api/gift-sender/gifts/${OLD}`]: () => jsonResponse({ success: true }),
    });
    expect(await discardReplacedDraft(OLD)).toBe(true);
    expect(deleted(fetch)).toBe(1);
  });

  test('is kept once it has a message (the sender decides)', async () => {
    const fetch = serveJson({ [`GET /api/gift-sender/gifts/${OLD}`]: () => jsonResponse(summary('message_uploaded')) });
    expect(await discardReplacedDraft(OLD)).toBe(false);
    expect(deleted(fetch)).toBe(0);
  });
});
