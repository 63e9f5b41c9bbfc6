import { type Expression, expressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { preparedFirstRow } from '../../db/prepared-read.ts';
import type { GiftMessageType, NewGift } from './gifts.table.ts';

export async function insertGift(db: Executor, gift: NewGift): Promise<void> {
  await db.insertInto('gifts').values(gift).execute();
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

/** The sender's gifts, newest first (My Gifts; account deletion). */
export const listSenderGifts = (db: Executor, senderId: string) =>
  db.selectFrom('gifts').selectAll().where('sender_id', '=', senderId).orderBy('created_at', 'desc').orderBy('id').execute();

/** Gifts addressed to this e-mail that are paid (active), newest first. */
export const listActiveGiftsForEmail = (db: Executor, email: string, limit: number) =>
  db
    .selectFrom('gifts')
    .selectAll()
    .where('recipient_email', '=', email)
    .where('status', '=', 'active')
    .where('refunded_at', 'is', null)
    .where('taken_down_at', 'is', null)
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
 * What a gift link's greeting needs (verify-gift, called on every open of the link): six columns, not the row;
 * compiled once, read on every call.
 */
export const findGiftGreeting = preparedFirstRow((db, giftId: string) =>
  db.selectFrom('gifts').select(['id', 'recipient_name', 'status', 'message_state', 'refunded_at', 'taken_down_at']).where('id', '=', giftId),
);

/** A condition for another table's query: the gift whose id `giftId` gives (a column of that table) still exists. */
export function giftExists(giftId: Expression<string>) {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(eb.selectFrom('gifts').select('gifts.id').where('gifts.id', '=', giftId));
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

/**
 * The gift as it is inside the caller's transaction, its row locked on PostgreSQL (SQLite's write transaction is
 * one at a time already): a render job swapping the message in waits until the transaction ends.
 */
export function lockGifts(db: Executor, giftIds: string[]) {
  if (giftIds.length === 0) return Promise.resolve([]);
  const q = db.selectFrom('gifts').selectAll().where('id', 'in', giftIds);
  return (isPostgres(db) ? q.forUpdate() : q).execute();
}

/**
 * Counts one reveal against the plan, atomically: with a limit, the row only changes while scans remain, so two
 * concurrent scans can never both take the last one. False when the limit was already reached.
 */
export async function claimScan(db: Executor, giftId: string, limit: number | null, now: string): Promise<boolean> {
  let q = db
    .updateTable('gifts')
    .set((eb) => ({ scans_used: eb('scans_used', '+', 1), updated_at: now }))
    .where('id', '=', giftId)
    .where('status', '=', 'active');
  if (limit !== null) q = q.where('scans_used', '<', limit);
  const res = await q.executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Records the first successful reveal; true only for the call that recorded it. */
export async function markFirstOpened(db: Executor, giftId: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('gifts')
    .set({ first_opened_at: now })
    .where('id', '=', giftId)
    .where('first_opened_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

interface RenderedMessage {
  path: string;
  mime: string;
  size: number;
  poster: string | null;
  now: string;
}

/** Swaps the message to its rendition, only if the gift still holds the file that was processed. */
export async function finishMessageRender(db: Executor, giftId: string, original: string, r: RenderedMessage): Promise<boolean> {
  const res = await db
    .updateTable('gifts')
    .set({ message_path: r.path, message_mime: r.mime, message_size: r.size, message_poster_path: r.poster, message_state: 'ready', message_error: null, updated_at: r.now })
    .where('id', '=', giftId)
    .where('message_path', '=', original)
    .where('message_state', '=', 'processing')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function failMessageRender(db: Executor, giftId: string, original: string, error: string, now: string): Promise<void> {
  await db
    .updateTable('gifts')
    .set({ message_state: 'failed', message_error: error, updated_at: now })
    .where('id', '=', giftId)
    .where('message_path', '=', original)
    .where('message_state', '=', 'processing')
    .execute();
}

/**
 * Deletes the gift rows; their photos, upload intents, deliveries, reveal grants and reaction go with them (ON DELETE
 * CASCADE, decision 041). Only through `eraseGifts` (modules/gift-erasure), which first queues the files and removes
 * what holds no foreign key (jobs, failed-scan counters, unpaid orders). `onlyUnpaid`: a gift paid meanwhile stays.
 * Returns how many went.
 */
export async function deleteGiftRows(db: Executor, giftIds: string[], onlyUnpaid: boolean): Promise<number> {
  if (giftIds.length === 0) return 0;
  let q = db.deleteFrom('gifts').where('id', 'in', giftIds);
  if (onlyUnpaid) q = q.where('status', '!=', 'active').where('paid_at', 'is', null);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

// The staff console's changes to a gift (modules/staff): each is audited by the caller in the same transaction.

/** Every gift addressed to this e-mail, newest first, whatever its state. */
export const giftsForRecipientEmail = (db: Executor, email: string, limit: number) =>
  db.selectFrom('gifts').selectAll().where('recipient_email', '=', email).orderBy('created_at', 'desc').limit(limit).execute();

export const giftsByIds = (db: Executor, ids: string[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('gifts').selectAll().where('id', 'in', ids).orderBy('created_at', 'desc').execute();

/** More time (a new end) and/or more reveals. */
export async function extendGift(db: Executor, giftId: string, change: { validUntil?: string; extraScans?: number }, now: string): Promise<void> {
  await db
    .updateTable('gifts')
    .set((eb) => ({
      ...(change.validUntil ? { valid_until_override: change.validUntil } : {}),
      ...(change.extraScans ? { extra_scans: eb('extra_scans', '+', change.extraScans) } : {}),
      updated_at: now,
    }))
    .where('id', '=', giftId)
    .execute();
}

/** The sender's reminders switch (issue 40): off since `offAt`, or on (null). */
export async function setRemindersOff(db: Executor, giftId: string, offAt: string | null, now: string): Promise<void> {
  await db.updateTable('gifts').set({ reminders_off_at: offAt, updated_at: now }).where('id', '=', giftId).execute();
}

/** Takes a refund mark back (the provider refused the refund): only the mark made at `markedAt`. */
export async function unwithdrawRefund(db: Executor, giftId: string, markedAt: string, now: string): Promise<void> {
  await db.updateTable('gifts').set({ refunded_at: null, updated_at: now }).where('id', '=', giftId).where('refunded_at', '=', markedAt).execute();
}

/** Staff lifted a take-down: the gift opens, and may be changed, again. True only for the call that lifted it. */
export async function liftTakedown(db: Executor, giftId: string, now: string): Promise<boolean> {
  const res = await db.updateTable('gifts').set({ taken_down_at: null, updated_at: now }).where('id', '=', giftId).where('taken_down_at', 'is not', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Whether the gift is taken down (media of a taken-down gift is served to nobody). */
export async function isTakenDown(db: Executor, giftId: string): Promise<boolean> {
  const row = await db.selectFrom('gifts').select('taken_down_at').where('id', '=', giftId).executeTakeFirst();
  return row?.taken_down_at != null;
}

/** Refunded or taken down: the gift opens no more. True only for the call that marked it. */
export async function withdrawGift(db: Executor, giftId: string, column: 'refunded_at' | 'taken_down_at', now: string): Promise<boolean> {
  const res = await db.updateTable('gifts').set({ [column]: now, updated_at: now }).where('id', '=', giftId).where(column, 'is', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
