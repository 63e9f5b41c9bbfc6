import { describe, expect, it } from 'vitest';
import { formatLongDate, formatTime } from './format.ts';

describe('dates and times in a time zone', () => {
  const instant = new Date('2026-11-21T10:10:00Z');

  it('shows the instant in the zone the sender chose it in', () => {
    expect(`${formatLongDate(instant, 'Asia/Kolkata')} at ${formatTime(instant, 'Asia/Kolkata')}`).toBe(
      'Saturday, November 21, 2026 at 3:40 PM',
    );
    expect(
      `${formatLongDate(instant, 'America/Los_Angeles')} at ${formatTime(instant, 'America/Los_Angeles')}`,
    ).toBe('Saturday, November 21, 2026 at 2:10 AM');
    expect(formatLongDate(new Date('2026-11-21T20:00:00Z'), 'Pacific/Auckland')).toBe(
      'Sunday, November 22, 2026',
    );
  });

  it('falls back to the browser zone for a zone name it does not know', () => {
    expect(formatTime(instant, 'Not/AZone')).toBe(formatTime(instant));
  });
});
