import type { Delivery } from '@giftlens/contract/scheduling';
import { describe, expect, it } from 'vitest';
import { confirmationState, type ScheduleConfirmation } from './schedule-confirmation.ts';

const TEN = Date.parse('2026-11-21T10:00:00.000Z');
const delivery = (at: number, status: Delivery['status'] = 'pending'): Delivery => ({
  id: 'd1',
  giftId: 'g'.repeat(32),
  contactType: 'email',
  recipientContact: 'ravi@example.com',
  scheduledDatetime: new Date(at).toISOString(),
  timezone: 'UTC',
  status,
  attempts: 0,
  lastError: null,
  sentAt: null,
  createdAt: '2026-11-20T08:00:00.000Z',
});
const confirmation = (seen: boolean): ScheduleConfirmation => ({ text: 'Delivery scheduled for 10:00', leaving: false, at: TEN, seen });

describe('the share page\'s "Delivery scheduled for …" (issue 37)', () => {
  it('is shown while the list catches up and while the delivery is pending at that instant', () => {
    expect(confirmationState(confirmation(false), [])).toEqual({ shown: true, listed: false });
    expect(confirmationState(confirmation(false), [delivery(TEN)])).toEqual({ shown: true, listed: true });
    expect(confirmationState(confirmation(true), [delivery(TEN)]).shown).toBe(true);
  });

  it('goes once the delivery was moved to 11:00 or cancelled', () => {
    expect(confirmationState(confirmation(true), [delivery(TEN + 3600_000)]).shown).toBe(false);
    expect(confirmationState(confirmation(true), []).shown).toBe(false);
    expect(confirmationState(confirmation(true), [delivery(TEN, 'cancelled')]).shown).toBe(false);
  });

  it('none without a schedule', () => {
    expect(confirmationState(null, [delivery(TEN)])).toEqual({ shown: false, listed: false });
  });
});
