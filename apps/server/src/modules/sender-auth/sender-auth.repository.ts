import type { Executor } from '../../db/database.ts';
import type { SenderUpdate } from './sender-auth.table.ts';

export const findSenderByEmail = (db: Executor, email: string) =>
  db.selectFrom('senders').selectAll().where('email', '=', email).executeTakeFirst();

export const findSenderById = (db: Executor, id: string) =>
  db.selectFrom('senders').selectAll().where('id', '=', id).executeTakeFirst();

/** A new sender row for a verified e-mail; a concurrent verification that inserted it first wins. */
export async function insertSenderIfNew(db: Executor, s: { id: string; email: string; now: string }): Promise<void> {
  await db
    .insertInto('senders')
    .values({ id: s.id, email: s.email, phone_number: null, first_name: null, created_at: s.now, updated_at: s.now })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
}

export async function updateSender(db: Executor, id: string, update: SenderUpdate): Promise<void> {
  await db.updateTable('senders').set(update).where('id', '=', id).execute();
}

/** The sender row; their gifts must be gone first (gifts.sender_id ON DELETE RESTRICT), their push subscriptions follow. */
export async function deleteSender(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('senders').where('id', '=', id).execute();
}
