import type { Delivery } from '@giftlens/contract/scheduling';
import { formatLongDate, formatTime } from '../../lib/format.ts';

export type StatusTone = 'scheduled' | 'progress' | 'sent' | 'warning' | 'error' | 'cancelled';

/** "Saturday, November 21, 2026 at 3:40 PM" in the zone the sender chose it in. */
function when(iso: string, timeZone: string): string {
  const d = new Date(iso);
  return `${formatLongDate(d, timeZone)} at ${formatTime(d, timeZone)}`;
}

/** A delivery's state in words, for the deliveries list. */
export function deliveryStatus(d: Delivery): { text: string; tone: StatusTone } {
  switch (d.status) {
    case 'pending':
      return d.lastError
        ? { text: `Retrying — last attempt failed: ${d.lastError}`, tone: 'warning' }
        : { text: `Scheduled for ${when(d.scheduledDatetime, d.timezone)}`, tone: 'scheduled' };
    case 'sending':
      return { text: 'Sending…', tone: 'progress' };
    case 'sent':
      return { text: `Sent ${when(d.sentAt ?? d.scheduledDatetime, d.timezone)}`, tone: 'sent' };
    case 'failed':
      return { text: `Failed: ${d.lastError ?? 'the link could not be sent'}`, tone: 'error' };
    case 'cancelled':
      return { text: 'Cancelled', tone: 'cancelled' };
  }
}

/** Still on its way: the list is polled while one of these exists. */
export function isInFlight(d: Delivery): boolean {
  return d.status === 'pending' || d.status === 'sending';
}

/** The server lets the sender change or cancel a delivery only before it is sent (a failed one is sent again). */
export function isChangeable(d: Delivery): boolean {
  return d.status === 'pending' || d.status === 'failed';
}

/** A delivery on its way is asked after this often in general (a schedule for later changes rarely)… */
export const DELIVERIES_POLL_MS = 10_000;
/** …and this often while one is due now (Send now, a schedule reaching its time): the runner sends in well under a second. */
export const DUE_NOW_POLL_MS = 1_000;
/** How long after its instant a delivery still on its way counts as due now (then a retry's back-off is what waits). */
const DUE_NOW_WINDOW_MS = 30_000;

/**
 * How soon to ask for the deliveries again: never while none is on its way; every second while one is due now, so
 * "Sent" shows as soon as the mail has left; every 10 s otherwise.
 */
export function deliveriesPollMs(deliveries: readonly Delivery[], now: number): number | false {
  const going = deliveries.filter(isInFlight);
  if (going.length === 0) return false;
  const dueNow = going.some((d) => {
    const due = Date.parse(d.scheduledDatetime);
    return due <= now + DUE_NOW_POLL_MS && now - due < DUE_NOW_WINDOW_MS;
  });
  return dueNow ? DUE_NOW_POLL_MS : DELIVERIES_POLL_MS;
}
