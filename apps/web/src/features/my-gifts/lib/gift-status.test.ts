import type { MyGift } from '@giftlens/contract/my-gifts';
import type { Delivery } from '@giftlens/contract/scheduling';
import { describe, expect, it } from 'vitest';
import { giftStatus, nextDelivery, nextStep, occasionText, scansText, validityText } from './gift-status.ts';
import { paid } from './my-gift.fixture.ts';

const gift = (patch: Partial<MyGift>): MyGift => ({ ...paid, ...patch });

const delivery = (patch: Partial<Delivery>): Delivery => ({
  id: 'd1',
  giftId: paid.id,
  contactType: 'email',
  recipientContact: 'ravi@example.com',
  scheduledDatetime: '2026-11-21T10:10:00.000Z',
  timezone: 'Asia/Kolkata',
  status: 'pending',
  attempts: 0,
  lastError: null,
  sentAt: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  ...patch,
});

describe('gift status in words', () => {
  it('says draft, awaiting payment and processing before the gift is ready', () => {
    const draft = gift({ status: 'draft', messageType: null, messageState: 'none', paidAt: null, validUntil: null });
    expect(giftStatus(draft)).toMatchObject({ kind: 'draft', text: 'Draft' });
    const unpaid = gift({ status: 'message_uploaded', paidAt: null, validUntil: null });
    expect(giftStatus(unpaid)).toMatchObject({ kind: 'awaiting-payment', text: 'Awaiting payment' });
    expect(giftStatus(gift({ messageState: 'processing' }))).toMatchObject({
      kind: 'processing',
      text: 'Processing your message',
    });
    // A draft's upload being converted is still a draft until the message is confirmed ready.
    expect(giftStatus(gift({ status: 'draft', messageState: 'processing' })).kind).toBe('draft');
  });

  it('puts a failed message first, with the reason and what to do', () => {
    const failed = gift({ messageState: 'failed', messageError: 'This file is not a video we can read.' });
    expect(giftStatus(failed)).toEqual({
      kind: 'failed',
      text: 'Your message could not be used',
      detail: 'This file is not a video we can read. Please upload it again.',
      tone: 'error',
    });
    expect(giftStatus(gift({ messageState: 'failed', messageError: null })).detail).toBe(
      'We could not read this file. Please upload it again.',
    );
  });

  it('says ready when paid and neither sent nor opened', () => {
    expect(giftStatus(paid)).toMatchObject({ kind: 'ready', text: 'Ready to share' });
    // Cancelled or failed deliveries do not count as scheduled or delivered.
    const notGoing = gift({ deliveries: [delivery({ status: 'cancelled' }), delivery({ id: 'd2', status: 'failed' })] });
    expect(giftStatus(notGoing).kind).toBe('ready');
  });

  it('names the next pending delivery in its own time zone', () => {
    const later = delivery({ id: 'later', scheduledDatetime: '2026-11-25T10:10:00.000Z' });
    const sooner = delivery({ id: 'sooner', scheduledDatetime: '2026-11-21T10:10:00.000Z', timezone: 'Asia/Kolkata' });
    const g = gift({ deliveries: [later, sooner] });
    expect(nextDelivery(g.deliveries)?.id).toBe('sooner');
    expect(giftStatus(g)).toMatchObject({
      kind: 'scheduled',
      text: 'Delivery scheduled for Saturday, November 21, 2026 at 3:40 PM',
    });
    const ny = gift({ deliveries: [delivery({ timezone: 'America/New_York' })] });
    expect(giftStatus(ny).text).toBe('Delivery scheduled for Saturday, November 21, 2026 at 5:10 AM');
    expect(giftStatus(gift({ deliveries: [delivery({ status: 'sending' })] })).text).toBe('Sending the gift link now');
  });

  it('says delivered (not opened yet) once the link was sent', () => {
    const sent = delivery({ status: 'sent', sentAt: '2026-11-21T20:00:00.000Z', timezone: 'Asia/Kolkata' });
    expect(giftStatus(gift({ deliveries: [sent] }))).toMatchObject({
      kind: 'delivered',
      text: 'Delivered Sunday, November 22, 2026',
      detail: 'Not opened yet.',
    });
  });

  it('counts openings once the gift was opened, over any delivery', () => {
    const sent = delivery({ status: 'sent', sentAt: '2026-11-21T20:00:00.000Z' });
    const once = gift({ firstOpenedAt: '2026-11-22T09:00:00.000Z', scansUsed: 1, deliveries: [sent] });
    expect(giftStatus(once)).toMatchObject({ kind: 'opened', text: 'Opened 1 time' });
    expect(giftStatus(gift({ firstOpenedAt: '2026-11-22T09:00:00.000Z', scansUsed: 4 })).text).toBe('Opened 4 times');
  });

  it('headlines the link sent over a later schedule still pending, which is said under it', () => {
    // Sent with Send now at 4:34, a schedule for 4:40 still pending: the link went out, that is the headline.
    const sentNow = delivery({ id: 'now', status: 'sent', scheduledDatetime: '2026-11-26T04:34:00.000Z', sentAt: '2026-11-26T04:34:01.000Z', timezone: 'UTC' });
    const later = delivery({ id: 'later', status: 'pending', scheduledDatetime: '2026-11-26T04:40:00.000Z', timezone: 'UTC' });
    expect(giftStatus(gift({ deliveries: [later, sentNow] }))).toEqual({
      kind: 'delivered',
      text: 'Delivered Thursday, November 26, 2026',
      detail: 'Not opened yet. Another delivery is scheduled for Thursday, November 26, 2026 at 4:40 AM.',
      tone: 'success',
    });
    // Opened: that is the headline, the pending schedule still beneath it.
    expect(giftStatus(gift({ deliveries: [later, sentNow], firstOpenedAt: '2026-11-26T05:00:00.000Z', scansUsed: 2 }))).toMatchObject({
      kind: 'opened',
      text: 'Opened 2 times',
      detail: 'Another delivery is scheduled for Thursday, November 26, 2026 at 4:40 AM.',
    });
  });

  it('headlines a reaction: processing while it is converted, then recorded', () => {
    const opened = { firstOpenedAt: '2026-11-22T09:00:00.000Z', scansUsed: 1, planId: 'lifetime_us' as const, planName: 'Lifetime' };
    expect(giftStatus(gift({ ...opened, reactionState: 'processing' }))).toEqual({
      kind: 'reaction-processing',
      text: 'Reaction processing…',
      detail: 'Ravi recorded a reaction. We are preparing it so it plays everywhere; we will tell you when it is ready.',
      tone: 'progress',
    });
    const reaction = { url: '/media/r.mp4?sig=1', mime: 'video/mp4', posterUrl: null, recordedAt: '2026-11-22T09:01:00.000Z' };
    expect(giftStatus(gift({ ...opened, reactionState: 'ready', reaction }))).toMatchObject({
      kind: 'reaction',
      text: 'Ravi recorded a reaction',
      detail: 'Opened 1 time.',
    });
    expect(giftStatus(gift({ ...opened, reactionState: 'failed' }))).toMatchObject({
      kind: 'opened',
      detail: 'Ravi’s reaction could not be converted, so it cannot be shown.',
    });
  });

  it('says plan ended over everything but a failed message', () => {
    const ended = gift({ ended: true, firstOpenedAt: '2026-11-22T09:00:00.000Z', scansUsed: 10 });
    expect(giftStatus(ended)).toMatchObject({ kind: 'ended', text: 'Plan ended' });
  });
});

describe('scans and validity', () => {
  it('shows scans used of the allowance, or unlimited, and nothing before payment', () => {
    expect(scansText(paid)).toBe('0 of 10 scans used');
    expect(scansText(gift({ scansUsed: 3 }))).toBe('3 of 10 scans used');
    expect(scansText(gift({ scansAllowed: null, scansUsed: 1 }))).toBe('1 scan · unlimited');
    expect(scansText(gift({ scansAllowed: null, scansUsed: 5 }))).toBe('5 scans · unlimited');
    expect(scansText(gift({ status: 'message_uploaded' }))).toBeNull();
  });

  it('shows the validity left in days, hours, a date, or no end', () => {
    const now = new Date('2026-11-20T08:00:00.000Z');
    expect(validityText(paid, now)).toBe('Valid for 30 more days');
    // Just bought (a few seconds into a 30-day plan): still 30 days, not 29.
    expect(validityText(gift({ validUntil: new Date(now.getTime() + 30 * 86_400_000 - 5_000).toISOString() }), now)).toBe('Valid for 30 more days');
    expect(validityText(gift({ validUntil: '2026-11-21T20:30:00.000Z' }), now)).toBe('Valid for 36 more hours');
    expect(validityText(gift({ validUntil: '2026-11-20T09:00:00.000Z' }), now)).toBe('Valid for 1 more hour');
    expect(validityText(gift({ validUntil: '2026-11-20T08:30:00.000Z' }), now)).toBe('Valid for less than an hour');
    expect(validityText(gift({ validUntil: '2027-06-01T12:00:00.000Z' }), now)).toMatch(/^Valid until \w+day, June 1, 2027$/);
    expect(validityText(gift({ validUntil: '2026-11-19T12:00:00.000Z' }), now)).toMatch(/^Ended \w+day, November 19, 2026$/);
    expect(validityText(gift({ validUntil: null, scansAllowed: null }), now)).toBe('No end date');
    expect(validityText(gift({ status: 'draft', validUntil: null }), now)).toBeNull();
  });
});

describe('next step and occasion', () => {
  it('resumes a draft, sends an unpaid gift to checkout, offers replacing until opened', () => {
    expect(nextStep(gift({ status: 'draft' }))).toBe('resume');
    expect(nextStep(gift({ status: 'message_uploaded' }))).toBe('checkout');
    expect(nextStep(gift({ status: 'message_uploaded', messageState: 'failed' }))).toBe('upload-again');
    expect(nextStep(paid)).toBe('replace');
    expect(nextStep(gift({ canReplaceMessage: false, firstOpenedAt: '2026-11-22T09:00:00.000Z' }))).toBeNull();
    expect(nextStep(gift({ ended: true }))).toBeNull();
  });

  it('labels known occasions and keeps unknown ones', () => {
    expect(occasionText('new-job')).toBe('New Job');
    expect(occasionText('mothers-day')).toBe("Mother's Day");
    expect(occasionText('Diwali')).toBe('Diwali');
  });
});

describe('a refunded or taken-down gift (issue 37)', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');
  it('says "Refunded" or "Taken down", not "Plan ended", and no validity left', () => {
    const refunded = gift({ withdrawn: 'refunded', ended: true });
    expect(giftStatus(refunded)).toMatchObject({ kind: 'refunded', text: 'Refunded' });
    expect(validityText(refunded, now)).toBeNull();
    const down = gift({ withdrawn: 'taken_down', ended: true, canReplaceMessage: false });
    expect(giftStatus(down)).toMatchObject({ kind: 'taken-down', text: 'Taken down', tone: 'error' });
    expect(validityText(down, now)).toBeNull();
  });

  it('offers no next step that cannot work', () => {
    expect(nextStep(gift({ withdrawn: 'refunded', ended: true }))).toBeNull();
    expect(nextStep(gift({ withdrawn: 'taken_down', ended: true, canReplaceMessage: true }))).toBeNull();
  });
});
