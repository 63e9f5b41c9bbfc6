import type { Plan } from '@giftlens/contract/plans';
import type { Executor } from '../../db/database.ts';
import { recipientReminderJob, senderReminderJob } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';

const HOUR = 3_600_000;
/** The sender is reminded this long after the link went out, when the gift is still unopened. */
export const SENDER_REMINDER_AFTER_MS = 48 * HOUR;
/** The recipient is reminded this long before the plan ends. */
export const RECIPIENT_REMINDER_BEFORE_MS = 24 * HOUR;

/**
 * Queues a gift's two reminders (issue 40) in the transaction that marks it paid: each exists exactly once per gift
 * (its job key), due at the earliest moment it could be sent; the job looks again then (the link may go out later,
 * the plan may have been extended) and reschedules itself, or does nothing. A plan shorter than two days gets no
 * recipient reminder: "ends tomorrow" would come on the day it was given.
 */
export async function queueReminders(db: Executor, now: Date, giftId: string, plan: Plan): Promise<void> {
  await enqueue(db, now, 'reminder.sender', { giftId }, { ...senderReminderJob(giftId), runAt: new Date(now.getTime() + SENDER_REMINDER_AFTER_MS) });
  if (plan.validityMs !== null && plan.validityMs >= 2 * RECIPIENT_REMINDER_BEFORE_MS) {
    const runAt = new Date(now.getTime() + plan.validityMs - RECIPIENT_REMINDER_BEFORE_MS);
    await enqueue(db, now, 'reminder.recipient', { giftId }, { ...recipientReminderJob(giftId), runAt });
  }
}
