import type { Executor } from '../../db/database.ts';

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

export async function deleteRecipientByEmail(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('recipients').where('email', '=', email).execute();
}
