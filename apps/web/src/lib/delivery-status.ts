import type { Delivery } from '@giftlens/contract/scheduling';
import { formatLongDate, formatTime } from './delivery-time.ts';

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
