import type { Executor } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { GiftMessageType, NewGift, NewGiftPhoto } from './gifts.table.ts';

export async function insertGift(db: Executor, gift: NewGift): Promise<void> {
  await db.insertInto('gifts').values(gift).execute();
}

export async function insertGiftPhotos(db: Executor, photos: NewGiftPhoto[]): Promise<void> {
  if (photos.length > 0) await db.insertInto('gift_photos').values(photos).execute();
}

/** Only the sender's own gift: a foreign gift is indistinguishable from a missing one. */
export const findSenderGift = (db: Executor, giftId: string, senderId: string) =>
  db
    .selectFrom('gifts')
    .selectAll()
    .where('id', '=', giftId)
    .where('sender_id', '=', senderId)
    .executeTakeFirst();

export const findGift = (db: Executor, giftId: string) =>
  db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirst();

export const listGiftPhotos = (db: Executor, giftId: string) =>
  db
    .selectFrom('gift_photos')
    .select(['id', 'storage_path', 'mime', 'quality', 'position'])
    .where('gift_id', '=', giftId)
    .orderBy('position')
    .execute();

/**
 * The features of every photo of the `limit` newest active gifts for this recipient e-mail, whoever sent them,
 * except `exceptGiftId`: what a look-alike check compares a new photo with (the recipient's scan sees the same).
 */
export async function activePhotoFeaturesForEmail(db: Executor, email: string, exceptGiftId: string, limit: number): Promise<Buffer[]> {
  const gifts = db
    .selectFrom('gifts')
    .select('id')
    .where('recipient_email', '=', email)
    .where('status', '=', 'active')
    .where('id', '!=', exceptGiftId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit);
  const rows = await db.selectFrom('gift_photos').select('features').where('gift_id', 'in', gifts).execute();
  return rows.flatMap((r) => (r.features ? [r.features] : []));
}

export interface GiftMessage {
  type: GiftMessageType;
  path: string | null;
  mime: string | null;
  size: number | null;
  text: string | null;
  /** ready, or processing while the job makes the file play everywhere. */
  state: 'ready' | 'processing';
}

/** Stores the message unless the gift was opened meanwhile; false when nothing changed. */
export async function setGiftMessage(db: Executor, giftId: string, message: GiftMessage, now: string) {
  const res = await db
    .updateTable('gifts')
    .set({
      message_type: message.type,
      message_path: message.path,
      message_mime: message.mime,
      message_size: message.size,
      message_text: message.text,
      message_state: message.state,
      message_poster_path: null,
      message_error: null,
      // A paid gift stays paid when its message is replaced.
      status: (eb) => eb.case().when('status', '=', 'active').then('active' as const).else('message_uploaded' as const).end(),
      updated_at: now,
    })
    .where('id', '=', giftId)
    // Until the gift is first opened; after that the message is what was revealed.
    .where((eb) => eb.or([eb('status', '!=', 'active'), eb('first_opened_at', 'is', null)]))
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Idempotent: only the first call moves a gift to active, sets paid_at and its sealed backup code (true then). */
export async function markGiftActive(db: Executor, giftId: string, now: string, backupCode: string): Promise<boolean> {
  const res = await db
    .updateTable('gifts')
    .set({ status: 'active', paid_at: now, updated_at: now, backup_code: backupCode })
    .where('id', '=', giftId)
    .where('status', '!=', 'active')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Replaces a paid gift's sealed backup code (`onlyIfNone`: only when it has none yet); true when a row changed. */
export async function setBackupCode(db: Executor, giftId: string, sealed: string, onlyIfNone = false): Promise<boolean> {
  let q = db.updateTable('gifts').set({ backup_code: sealed }).where('id', '=', giftId).where('status', '=', 'active');
  if (onlyIfNone) q = q.where('backup_code', 'is', null);
  const res = await q.executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Every stored file of these gifts: photos, message and its poster, upload targets, reaction and its poster. */
export async function listGiftFiles(db: Executor, giftIds: string[]): Promise<string[]> {
  if (giftIds.length === 0) return [];
  const [photos, gifts, intents, reactions] = await Promise.all([
    db.selectFrom('gift_photos').select('storage_path').where('gift_id', 'in', giftIds).execute(),
    db.selectFrom('gifts').select(['message_path', 'message_poster_path']).where('id', 'in', giftIds).execute(),
    db.selectFrom('upload_intents').select('file_path').where('gift_id', 'in', giftIds).execute(),
    db.selectFrom('reactions').select(['file_path', 'poster_path']).where('gift_id', 'in', giftIds).execute(),
  ]);
  const files = [
    ...photos.map((p) => p.storage_path),
    ...gifts.flatMap((g) => [g.message_path, g.message_poster_path]),
    ...intents.map((i) => i.file_path),
    ...reactions.flatMap((r) => [r.file_path, r.poster_path]),
  ];
  return [...new Set(files.filter((f): f is string => f !== null))];
}

/**
 * The gift as it is inside the caller's transaction, its row locked on PostgreSQL (SQLite's write transaction is
 * one at a time already): a render job swapping the message in waits until the transaction ends.
 */
export function lockGifts(db: Executor, giftIds: string[]) {
  if (giftIds.length === 0) return Promise.resolve([]);
  const q = db.selectFrom('gifts').selectAll().where('id', 'in', giftIds);
  return (isPostgres(db) ? q.forUpdate() : q).execute();
}
