import type { Executor } from '../../db/database.ts';
import { preparedFirstRow } from '../../db/prepared-read.ts';

export const findRecipientByEmail = (db: Executor, email: string) =>
  db.selectFrom('recipients').selectAll().where('email', '=', email).executeTakeFirst();

/** The one recipient row for an e-mail, created on first verification; concurrent calls agree on it. */
export async function upsertRecipient(db: Executor, email: string, id: string, now: string) {
  await db
    .insertInto('recipients')
    .values({ id, email, created_at: now })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await findRecipientByEmail(db, email);
  if (!row) throw new Error('recipient row missing after upsert');
  return row;
}

/** Gifts addressed to this e-mail that are paid (active), newest first. */
export const listActiveGiftsForEmail = (db: Executor, email: string, limit: number) =>
  db
    .selectFrom('gifts')
    .selectAll()
    .where('recipient_email', '=', email)
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();

/** The newest gift addressed to this e-mail, whatever its state. */
export const newestGiftForEmail = (db: Executor, email: string) =>
  db
    .selectFrom('gifts')
    .select(['id', 'recipient_name', 'status'])
    .where('recipient_email', '=', email)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/**
 * What a gift link's greeting needs (verify-gift, called on every open of the link): four columns, not the row;
 * compiled once, read on every call.
 */
export const findGiftGreeting = preparedFirstRow((db, giftId: string) =>
  db.selectFrom('gifts').select(['id', 'recipient_name', 'status', 'message_state']).where('id', '=', giftId),
);
