import { DELIVERY_TIME_STEP_MINUTES } from '@giftlens/contract/constants';
import { formatTime } from '../../lib/format.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** "YYYY-MM-DD" in local time, the value format of <input type="date">. */
export function toDateValue(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const toTimeValue = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** The local instant for a date value and an "HH:MM" time value. */
export function toLocalDate(date: string, time: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m || !t) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(t[1]), Number(t[2]), 0, 0);
}

/** The browser's IANA time zone, sent with every delivery so it can be shown as the sender chose it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
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

/** The instant rounded up to the next 10-minute step of local time (may roll over to the next day). */
function ceilToStep(d: Date): Date {
  const t = new Date(d);
  // Rounded in local minutes, so zones offset by 30 or 45 minutes still land on a listed option.
  const partial = t.getSeconds() > 0 || t.getMilliseconds() > 0;
  t.setSeconds(0, 0);
  const minutes = t.getMinutes() + (partial ? 1 : 0);
  t.setMinutes(Math.ceil(minutes / DELIVERY_TIME_STEP_MINUTES) * DELIVERY_TIME_STEP_MINUTES);
  return t;
}

/** Now plus one hour, rounded up to the next 10-minute step (may roll over to tomorrow). */
export function defaultDelivery(now = new Date()): { date: string; time: string } {
  const t = ceilToStep(new Date(now.getTime() + 60 * 60 * 1000));
  return { date: toDateValue(t), time: toTimeValue(t) };
}

/**
 * The form's date and time for changing a delivery: its own instant in local time (on a listed option), or the
 * usual default when that instant has passed (a failed or sent-now delivery is sent again at a new time).
 */
export function changeDefaults(instant: Date, now = new Date()): { date: string; time: string } {
  if (instant.getTime() <= now.getTime()) return defaultDelivery(now);
  const t = ceilToStep(instant);
  return { date: toDateValue(t), time: toTimeValue(t) };
}

/** ISO 8601 with the local offset, e.g. "2026-11-21T15:40:00+05:30". */
export function toIsoWithOffset(d: Date): string {
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${toDateValue(d)}T${toTimeValue(d)}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function isInFuture(d: Date): boolean {
  return d.getTime() > Date.now();
}
