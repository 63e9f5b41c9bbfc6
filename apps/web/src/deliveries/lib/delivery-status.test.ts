import type { Delivery } from '@giftlens/contract/scheduling';
import { describe, expect, it } from 'vitest';
import { deliveriesPollMs, deliveryStatus, isChangeable, isInFlight } from './delivery-status.ts';

const base: Delivery = {
  id: 'd1',
  giftId: '0123456789abcdef0123456789abcdef',
  contactType: 'email',
  recipientContact: 'ravi@example.com',
  scheduledDatetime: '2026-11-21T10:10:00.000Z',
  timezone: 'Asia/Kolkata',
  status: 'pending',
  attempts: 0,
  lastError: null,
  sentAt: null,
  createdAt: '2026-11-20T08:00:00.000Z',
};
const delivery = (patch: Partial<Delivery>): Delivery => ({ ...base, ...patch });

describe('delivery status in words', () => {
  it('says when a pending delivery goes out, in the sender’s zone', () => {
    expect(deliveryStatus(base)).toEqual({
      text: 'Scheduled for Saturday, November 21, 2026 at 3:40 PM',
      tone: 'scheduled',
    });
  });

  it('says a pending delivery is being retried after a failed attempt', () => {
    expect(deliveryStatus(delivery({ attempts: 1, lastError: 'Mailbox unavailable' }))).toEqual({
      text: 'Retrying — last attempt failed: Mailbox unavailable',
      tone: 'warning',
    });
  });

  it('words sending, sent and failed', () => {
    expect(deliveryStatus(delivery({ status: 'sending' })).text).toBe('Sending…');
    expect(deliveryStatus(delivery({ status: 'sent', sentAt: '2026-11-21T10:10:04.000Z' }))).toEqual({
      text: 'Sent Saturday, November 21, 2026 at 3:40 PM',
      tone: 'sent',
    });
    expect(deliveryStatus(delivery({ status: 'failed', lastError: 'Mailbox unavailable' }))).toEqual({
      text: 'Failed: Mailbox unavailable',
      tone: 'error',
    });
  });

  it('polls while pending or sending, and allows changes while pending or failed', () => {
    const statuses = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;
    expect(statuses.filter((status) => isInFlight(delivery({ status })))).toEqual(['pending', 'sending']);
    expect(statuses.filter((status) => isChangeable(delivery({ status })))).toEqual(['pending', 'failed']);
  });
});

describe('how soon the deliveries are asked again ("Sent" shows as soon as the link is sent)', () => {
  const now = Date.parse('2026-11-26T04:34:00.000Z');
  it('asks every second while a delivery is due now (Send now), every 10 s for one later, never when none is on its way', () => {
    const sendNow = delivery({ scheduledDatetime: new Date(now).toISOString(), status: 'pending' });
    expect(deliveriesPollMs([sendNow], now)).toBe(1000);
    expect(deliveriesPollMs([delivery({ ...sendNow, status: 'sending' })], now + 5_000)).toBe(1000);
    // Still not sent half a minute on: a retry's back-off is waiting, no need to ask every second.
    expect(deliveriesPollMs([sendNow], now + 31_000)).toBe(10_000);
    expect(deliveriesPollMs([delivery({ scheduledDatetime: '2026-11-26T05:40:00.000Z' })], now)).toBe(10_000);
    expect(deliveriesPollMs([delivery({ ...sendNow, status: 'sent' }), delivery({ status: 'cancelled' })], now)).toBe(false);
  });
});
