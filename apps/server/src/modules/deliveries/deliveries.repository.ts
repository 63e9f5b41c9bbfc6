import type { Executor } from '../../db/database.ts';
import type { ScheduledMessagesTable } from './deliveries.table.ts';

export async function insertScheduledMessage(db: Executor, message: ScheduledMessagesTable): Promise<void> {
  await db.insertInto('scheduled_messages').values(message).execute();
}

export const listScheduledForGift = (db: Executor, giftId: string) =>
  db.selectFrom('scheduled_messages').selectAll().where('gift_id', '=', giftId).orderBy('scheduled_at').execute();
