import type { Executor } from '../../db/database.ts';
import type { ScheduledMessage, ScheduledMessagesTable, ScheduledMessageStatus } from './deliveries.table.ts';

export async function insertScheduledMessage(db: Executor, message: ScheduledMessagesTable): Promise<void> {
  await db.insertInto('scheduled_messages').values(message).execute();
}

export const listForGift = (db: Executor, giftId: string) =>
  db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('gift_id', '=', giftId)
    .orderBy('scheduled_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();

export const findDelivery = (db: Executor, id: string): Promise<ScheduledMessage | undefined> =>
  db.selectFrom('scheduled_messages').selectAll().where('id', '=', id).executeTakeFirst();

export const findSenderDelivery = (db: Executor, id: string, senderId: string) =>
  db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('id', '=', id)
    .where('sender_id', '=', senderId)
    .executeTakeFirst();

/** The sender's change, only while the delivery may still change (`from`); false when it moved on meanwhile. */
export async function changeDelivery(
  db: Executor,
  id: string,
  from: ScheduledMessageStatus[],
  values: Partial<Pick<ScheduledMessagesTable, 'recipient_contact' | 'contact_type' | 'scheduled_at' | 'timezone' | 'status' | 'attempts' | 'last_error'>>,
  now: string,
): Promise<boolean> {
  const res = await db
    .updateTable('scheduled_messages')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * The worker takes the delivery for sending: only one that is pending (or was being sent by a worker that died)
 * and whose instant has come. A cancel or a new instant that came first wins.
 */
export async function markSending(db: Executor, id: string, now: string, attempt: number): Promise<boolean> {
  const res = await db
    .updateTable('scheduled_messages')
    .set({ status: 'sending', attempts: attempt, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sending'])
    .where('scheduled_at', '<=', now)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function markSent(db: Executor, id: string, now: string): Promise<void> {
  await db
    .updateTable('scheduled_messages')
    .set({ status: 'sent', sent_at: now, last_error: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** An attempt failed and another follows: the sender sees the error beside the pending delivery. */
export async function markAttemptFailed(db: Executor, id: string, error: string, now: string): Promise<void> {
  await db
    .updateTable('scheduled_messages')
    .set({ status: 'pending', last_error: error, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** Every attempt failed: kept with the last error for the sender (a change sends it again). */
export async function markFailed(db: Executor, id: string, error: string, now: string): Promise<void> {
  await db
    .updateTable('scheduled_messages')
    .set({ status: 'failed', last_error: error, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sending'])
    .execute();
}

/** These gifts' deliveries, the latest instant first (My Gifts). */
export const deliveriesOf = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('scheduled_messages')
        .selectAll()
        .where('gift_id', 'in', giftIds)
        .orderBy('scheduled_at', 'desc')
        .orderBy('created_at', 'desc')
        .execute();

/** Cancels a gift's deliveries not sent yet (a merchant cancelled the order); their jobs find them cancelled. */
export async function cancelPendingOfGift(db: Executor, giftId: string, now: string): Promise<void> {
  await db.updateTable('scheduled_messages').set({ status: 'cancelled', updated_at: now }).where('gift_id', '=', giftId).where('status', 'in', ['pending', 'failed']).execute();
}
