import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { findPlan, type PlanId } from '@giftlens/contract/plans';
import type { Database, Executor } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { countUpTo } from '../../db/sweep.ts';

// What deleting a gift and housekeeping read and change of gifts and gift_photos: which gifts are due, which files
// they hold, and emptying an ended one.

/** A condition on a gift in another module's table (an order, an upload intent), for a query on gifts. */
export type GiftCondition = (eb: ExpressionBuilder<Database, 'gifts'>) => Expression<SqlBool>;

function staleUnpaidGifts(db: Executor, cutoff: string, activity: GiftCondition[]) {
  let q = db
    .selectFrom('gifts')
    .select('gifts.id')
    // gifts_unpaid_idx's predicate, spelled as it is there (SQLite matches a partial index's terms exactly).
    .where(sql<boolean>`gifts.paid_at IS NULL`)
    .where(sql<boolean>`gifts.status <> 'active'`)
    // updated_at is never before created_at: untouched since the cutoff means older than it too.
    .where('gifts.updated_at', '<', cutoff);
  for (const active of activity) q = q.where((eb) => eb.not(active(eb)));
  return q.where((eb) =>
    eb.not(
      eb.exists(
        eb
          .selectFrom('gift_photos')
          .select('gift_photos.id')
          .whereRef('gift_photos.gift_id', '=', 'gifts.id')
          .where('gift_photos.created_at', '>=', cutoff),
      ),
    ),
  );
}

/**
 * Unpaid gifts (draft or message uploaded, never paid) with no activity since `cutoff`: the gift row and its photos
 * are older, and none of `activity` (an order paid or touched, an upload intent made: given by their modules) holds;
 * least recently touched first (gifts_unpaid_idx). On PostgreSQL the rows are locked with SKIP LOCKED: two workers
 * never take the same gift, and a gift another transaction is writing (a payment, a new photo or upload) is skipped.
 */
export function lockStaleUnpaidGifts(trx: Executor, cutoff: string, limit: number, activity: GiftCondition[]) {
  let q = staleUnpaidGifts(trx, cutoff, activity).orderBy('gifts.updated_at').limit(limit);
  if (isPostgres(trx)) q = q.forUpdate('gifts').skipLocked();
  return q.execute().then((rows) => rows.map((r) => r.id));
}

export const staleUnpaidGiftsLeft = (db: Executor, cutoff: string, activity: GiftCondition[]) =>
  countUpTo(db, staleUnpaidGifts(db, cutoff, activity));

const endedGiftsWithContent = (db: Executor, planId: PlanId, paidBefore: string) =>
  db
    .selectFrom('gifts')
    .select('gifts.id')
    .where('gifts.plan_id', '=', planId)
    // gifts_content_idx's predicate. A paid gift always holds its message (a path or a text: paying needs one, and a
    // replacement swaps it in one update), so "still holds content" is that; its photos go with it.
    .where(sql<boolean>`gifts.paid_at IS NOT NULL AND (gifts.message_path IS NOT NULL OR gifts.message_text IS NOT NULL)`)
    .where('gifts.paid_at', '<', paidBefore)
    // A gift staff extended ends at its own instant: its content stays as long after that as after a plan's end.
    .where((eb) => eb.or([eb('gifts.valid_until_override', 'is', null), eb('gifts.valid_until_override', '<', overrideBefore(planId, paidBefore))]));

/** The same moment as `paidBefore` (a plan's end plus the content's grace) for a gift whose end staff moved. */
const overrideBefore = (planId: PlanId, paidBefore: string) => new Date(Date.parse(paidBefore) + (findPlan(planId)?.validityMs ?? 0)).toISOString();

/**
 * Paid gifts on `planId` paid before `paidBefore` (so their plan ended long enough ago) that still hold a message
 * or a text. Locked like the unpaid ones so two workers never purge the same gift.
 */
export function lockEndedGiftsWithContent(trx: Executor, planId: PlanId, paidBefore: string, limit: number) {
  let q = endedGiftsWithContent(trx, planId, paidBefore).orderBy('gifts.paid_at').limit(limit);
  if (isPostgres(trx)) q = q.forUpdate('gifts').skipLocked();
  return q.execute().then((rows) => rows.map((r) => r.id));
}

export const endedGiftsLeft = (db: Executor, planId: PlanId, paidBefore: string) => countUpTo(db, endedGiftsWithContent(db, planId, paidBefore));

/** Empties ended gifts: message, text, photos and their recognition data go; the gift row stays. */
export async function purgeGiftContent(trx: Executor, giftIds: string[], nowIso: string): Promise<number> {
  if (giftIds.length === 0) return 0;
  await trx.deleteFrom('gift_photos').where('gift_id', 'in', giftIds).execute();
  const res = await trx
    .updateTable('gifts')
    .set({
      message_path: null,
      message_mime: null,
      message_size: null,
      message_text: null,
      message_poster_path: null,
      message_state: 'none',
      updated_at: nowIso,
    })
    .where('id', 'in', giftIds)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The files the gifts' own rows name: photos, message and its poster (nulls left out). */
export async function giftFilesOf(db: Executor, giftIds: string[]): Promise<string[]> {
  const [photos, gifts] = await Promise.all([
    db.selectFrom('gift_photos').select('storage_path').where('gift_id', 'in', giftIds).execute(),
    db.selectFrom('gifts').select(['message_path', 'message_poster_path']).where('id', 'in', giftIds).execute(),
  ]);
  return [...photos.map((p) => p.storage_path), ...gifts.flatMap((g) => [g.message_path, g.message_poster_path])].filter(
    (f): f is string => f !== null,
  );
}

/** Of these storage paths, the ones a gift names: a message, its poster, a photo. */
export const giftPathsAmong = (db: Executor, paths: string[]) =>
  Promise.all([
    // `is not null` as in the partial indexes' predicates (gifts_message_path_idx, gifts_poster_path_idx).
    db.selectFrom('gifts').select('message_path as path').where('message_path', 'is not', null).where('message_path', 'in', paths).execute(),
    db.selectFrom('gifts').select('message_poster_path as path').where('message_poster_path', 'is not', null).where('message_poster_path', 'in', paths).execute(),
    db.selectFrom('gift_photos').select('storage_path as path').where('storage_path', 'in', paths).execute(),
  ]).then((found) => found.flat());
