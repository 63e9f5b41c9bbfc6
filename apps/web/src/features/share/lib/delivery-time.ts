import { DELIVERY_TIME_STEP_MINUTES } from '@giftlens/contract/constants';

const pad = (n: number) => String(n).padStart(2, '0');

/** "YYYY-MM-DD" in local time, the value format of <input type="date">. */
export function toDateValue(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The local instant for a date value and an "HH:MM" time value. */
export function toLocalDate(date: string, time: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m || !t) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(t[1]), Number(t[2]), 0, 0);
}

const timeLabel = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });
const dateLabel = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });

export function formatTime(d: Date): string {
  return timeLabel.format(d);
}

export function formatLongDate(d: Date): string {
  return dateLabel.format(d);
}

/** Every 10-minute step of a day: value "HH:MM", label "3:40 PM". */
export function timeOptions(): { value: string; label: string }[] {
  const options: { value: string; label: string }[] = [];
  for (let minutes = 0; minutes < 24 * 60; minutes += DELIVERY_TIME_STEP_MINUTES) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    options.push({ value: `${pad(h)}:${pad(m)}`, label: formatTime(new Date(2000, 0, 1, h, m)) });
  }
  return options;
}

/** Now plus one hour, rounded up to the next 10-minute step (may roll over to tomorrow). */
export function defaultDelivery(now = new Date()): { date: string; time: string } {
  const t = new Date(now.getTime() + 60 * 60 * 1000);
  // Rounded in local minutes, so zones offset by 30 or 45 minutes still land on a listed option.
  const partial = t.getSeconds() > 0 || t.getMilliseconds() > 0;
  t.setSeconds(0, 0);
  const minutes = t.getMinutes() + (partial ? 1 : 0);
  t.setMinutes(Math.ceil(minutes / DELIVERY_TIME_STEP_MINUTES) * DELIVERY_TIME_STEP_MINUTES);
  return { date: toDateValue(t), time: `${pad(t.getHours())}:${pad(t.getMinutes())}` };
}

/** ISO 8601 with the local offset, e.g. "2026-11-21T15:40:00+05:30". */
export function toIsoWithOffset(d: Date): string {
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${toDateValue(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function isInFuture(d: Date): boolean {
  return d.getTime() > Date.now();
}
