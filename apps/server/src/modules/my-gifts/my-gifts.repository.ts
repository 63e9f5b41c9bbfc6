import type { Executor } from '../../db/database.ts';

export const listSenderGifts = (db: Executor, senderId: string) =>
  db.selectFrom('gifts').selectAll().where('sender_id', '=', senderId).orderBy('created_at', 'desc').orderBy('id').execute();

/** The first photo of each gift (its position 0). */
export const firstPhotos = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('gift_photos').select(['gift_id', 'storage_path']).where('gift_id', 'in', giftIds).where('position', '=', 0).execute();

/** The rated photos of these gifts: rating, its continuous score and reasons (unrated photos are left out). */
export const ratedPhotos = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('gift_photos')
        .select(['gift_id', 'rating', 'quality', 'quality_reasons'])
        .where('gift_id', 'in', giftIds)
        .where('rating', 'is not', null)
        .execute();

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

/** Reactions with a recording. */
export const recordedReactions = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('reactions')
        .select(['gift_id', 'file_path', 'file_mime', 'file_state', 'poster_path', 'uploaded_at'])
        .where('gift_id', 'in', giftIds)
        .where('file_path', 'is not', null)
        .execute();

/**
 * Deletes every row of these gifts; a paid order stays (amount, date, provider ids: accounting), an unpaid one
 * goes. Jobs that would still act on them go too.
 */
export async function deleteGiftRows(db: Executor, giftIds: string[]): Promise<void> {
  if (giftIds.length === 0) return;
  const deliveries = await db.selectFrom('scheduled_messages').select('id').where('gift_id', 'in', giftIds).execute();
  const keys = deliveries.map((d) => `delivery:${d.id}`);
  if (keys.length > 0) await db.deleteFrom('jobs').where('key', 'in', keys).execute();
  for (const id of giftIds) {
    await db
      .deleteFrom('jobs')
      .where((eb) =>
        eb.or([eb('key', 'like', `notice:%:${id}%`), eb('key', 'like', `media:${id}:%`), eb('key', '=', `payment-confirmation:${id}`)]),
      )
      .execute();
  }
  await db.deleteFrom('scheduled_messages').where('gift_id', 'in', giftIds).execute();
  await db.deleteFrom('scan_failures').where('scope', 'in', giftIds.flatMap((id) => [`gift:${id}`, `code:${id}`])).execute();
  await db.deleteFrom('reveal_grants').where('gift_id', 'in', giftIds).execute();
  await db.deleteFrom('reactions').where('gift_id', 'in', giftIds).execute();
  await db.deleteFrom('upload_intents').where('gift_id', 'in', giftIds).execute();
  await db.deleteFrom('gift_photos').where('gift_id', 'in', giftIds).execute();
  await db.deleteFrom('orders').where('gift_id', 'in', giftIds).where('status', '!=', 'paid').execute();
  await db.deleteFrom('gifts').where('id', 'in', giftIds).execute();
}

/** Everything else that holds the sender's id or e-mail address. */
export async function deleteSenderRows(db: Executor, sender: { id: string; email: string }): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('sender_id', '=', sender.id).execute();
  await db.deleteFrom('sessions').where('kind', '=', 'sender').where('subject', '=', sender.id).execute();
  // The same address may also have signed in as a recipient.
  await db.deleteFrom('sessions').where('kind', '=', 'recipient').where('subject', '=', sender.email).execute();
  await db.deleteFrom('recipients').where('email', '=', sender.email).execute();
  await db.deleteFrom('verification_codes').where('destination', '=', sender.email).execute();
  await db.deleteFrom('code_resends').where('destination', '=', sender.email).execute();
  await db.deleteFrom('scan_failures').where('scope', '=', `recipient:${sender.email}`).execute();
  await db.deleteFrom('senders').where('id', '=', sender.id).execute();
}
