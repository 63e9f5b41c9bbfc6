import { describe, expect, it } from 'vitest';
import { formatLongDate, formatTime } from '../../lib/format.ts';
import { changeDefaults, defaultDelivery, timeOptions, toIsoWithOffset, toLocalDate } from './delivery-time.ts';

describe('delivery time', () => {
  it('offers every 10 minutes of the day', () => {
    const options = timeOptions();
    expect(options).toHaveLength(144);
    expect(options[0]).toEqual({ value: '00:00', label: '12:00 AM' });
    expect(options[1]?.value).toBe('00:10');
    expect(options.at(-1)).toEqual({ value: '23:50', label: '11:50 PM' });
  });

  it('defaults to now plus one hour, rounded up to the next 10 minutes', () => {
    expect(defaultDelivery(new Date(2026, 10, 21, 14, 31, 5))).toEqual({ date: '2026-11-21', time: '15:40' });
    expect(defaultDelivery(new Date(2026, 10, 21, 14, 30, 0))).toEqual({ date: '2026-11-21', time: '15:30' });
    expect(defaultDelivery(new Date(2026, 10, 21, 23, 55))).toEqual({ date: '2026-11-22', time: '01:00' });
  });

  it('formats the preview in long US form', () => {
    const d = toLocalDate('2026-11-21', '15:40');
    expect(d).not.toBeNull();
    expect(`${formatLongDate(d!)} at ${formatTime(d!)}`).toBe('Saturday, November 21, 2026 at 3:40 PM');
    expect(toLocalDate('', '15:40')).toBeNull();
  });

  it('sends the local instant with its offset', () => {
    const d = new Date(2026, 10, 21, 15, 40);
    const iso = toIsoWithOffset(d);
    expect(iso).toMatch(/^2026-11-21T15:40:00[+-]\d{2}:\d{2}$/);
    expect(new Date(iso).getTime()).toBe(d.getTime());
  });
});

describe('changing a delivery', () => {
  it('prefills a change with the delivery time, or the default once it has passed', () => {
    const now = new Date(2026, 10, 21, 14, 31, 5);
    expect(changeDefaults(new Date(2026, 10, 22, 9, 40), now)).toEqual({ date: '2026-11-22', time: '09:40' });
    // A sent-now delivery is due at an odd minute: the form shows the next listed option.
    expect(changeDefaults(new Date(2026, 10, 21, 18, 43, 27), now)).toEqual({
      date: '2026-11-21',
      time: '18:50',
    });
    expect(changeDefaults(new Date(2026, 10, 21, 14, 0), now)).toEqual(defaultDelivery(now));
  });
});
