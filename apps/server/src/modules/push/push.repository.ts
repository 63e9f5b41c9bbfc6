import type { Executor } from '../../db/database.ts';

/**
 * One row per endpoint. Subscribing again keeps the row (keys updated); another sender takes it over only with the
 * keys stored for it (decision 037: only the browser holding the subscription knows its auth secret). One
 * statement, so two calls at once cannot both win: false when the endpoint is another sender's and the keys differ,
 * nothing written.
 */
export async function upsertSubscription(
  db: Executor,
  s: { id: string; senderId: string; endpoint: string; p256dh: string; auth: string; now: string },
): Promise<boolean> {
  const result = await db
    .insertInto('push_subscriptions')
    .values({
      id: s.id,
      sender_id: s.senderId,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      created_at: s.now,
      updated_at: s.now,
    })
    .onConflict((oc) =>
      oc
        .column('endpoint')
        .doUpdateSet({ sender_id: s.senderId, p256dh: s.p256dh, auth: s.auth, updated_at: s.now })
        .where((eb) =>
          eb.or([
            eb('push_subscriptions.sender_id', '=', s.senderId),
            eb.and([eb('push_subscriptions.p256dh', '=', s.p256dh), eb('push_subscriptions.auth', '=', s.auth)]),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function deleteSenderSubscription(db: Executor, senderId: string, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('sender_id', '=', senderId).where('endpoint', '=', endpoint).execute();
}

export async function deleteSubscription(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

export const listSenderSubscriptions = (db: Executor, senderId: string) =>
  db.selectFrom('push_subscriptions').select('id').where('sender_id', '=', senderId).orderBy('created_at').execute();

export const findSubscription = (db: Executor, id: string) =>
  db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
