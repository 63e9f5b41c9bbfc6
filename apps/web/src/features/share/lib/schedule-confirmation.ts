import type { Delivery } from '@giftlens/contract/scheduling';

/** "Delivery scheduled for …" after a schedule: its words, whether the jump home is due, the instant it names. */
export interface ScheduleConfirmation {
  text: string;
  leaving: boolean;
  /** The scheduled instant (ms) the words name. */
  at: number;
  /** The pending list has shown that delivery since. */
  seen: boolean;
}

/**
 * Whether the confirmation is still true (issue 37): until the pending list has caught up it is shown; once it has
 * shown the delivery, only while a delivery is still pending at that instant. Moved or cancelled (in the form, or in
 * the list), it goes. `listed`: the list shows it now.
 */
export function confirmationState(confirmation: ScheduleConfirmation | null, pending: readonly Delivery[]): { shown: boolean; listed: boolean } {
  if (!confirmation) return { shown: false, listed: false };
  const listed = pending.some((d) => d.status === 'pending' && Date.parse(d.scheduledDatetime) === confirmation.at);
  return { shown: listed || !confirmation.seen, listed };
}
