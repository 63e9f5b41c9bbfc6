import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { PlanId } from '@giftlens/contract/plans';
import type { Database, Executor } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';

// What deleting a gift and housekeeping read and change of gifts and gift_photos: which gifts are due, which files
// they hold, and emptying an ended one.

/** A condition on a gift in another module's table (an order, an upload intent), for a query on gifts. */
export type GiftCondition = (eb: ExpressionBuilder<Database, 'gifts'>) => Expression<SqlBool>;

/**
 * Unpaid gifts (draft or message uploaded, never paid) with no activity since `cutoff`: the gift row and its photos
 * are older, and none of `activity` (an order paid or touched, an upload intent made: given by their modules) holds.
 * On PostgreSQL the rows are locked with SKIP LOCKED: two workers never take the same gift, and a gift another
 * transaction is writing (a payment, a new photo or upload) is skipped.
 */
export function lockStaleUnpaidGifts(trx: Executor, cutoff: string, limit: number, activity: GiftCondition[]) {
  let q = trx
    .selectFrom('gifts')
    .select('gifts.id')
    .where('gifts.status', '!=', 'active')
    .where('gifts.paid_at', 'is', null)
    // updated_at is never before created_at: untouched since the cutoff means older than it too.
    .where('gifts.updated_at', '<', cutoff);
  for (const active of activity) q = q.where((eb) => eb.not(active(eb)));
  q = q
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('gift_photos')
            .select('gift_photos.id')
            .whereRef('gift_photos.gift_id', '=', 'gifts.id')
            .where('gift_photos.created_at', '>=', cutoff),
        ),
      ),
    )
    .orderBy('gifts.created_at')
    .limit(limit);
  if (isPostgres(trx)) q = q.forUpdate('gifts').skipLocked();
  return q.execute().then((rows) => rows.map((r) => r.id));
}

/**
 * Paid gifts on `planId` paid before `paidBefore` (so their plan ended long enough ago) that still hold a message,
 * a text or a photo. Locked like the unpaid ones so two workers never purge the same gift.
 */
export function lockEndedGiftsWithContent(trx: Executor, planId: PlanId, paidBefore: string, limit: number) {
  let q = trx
    .selectFrom('gifts')
    .select('gifts.id')
    .where('gifts.plan_id', '=', planId)
    .where('gifts.paid_at', 'is not', null)
    .where('gifts.paid_at', '<', paidBefore)
    .where((eb) =>
      eb.or([
        eb('gifts.message_path', 'is not', null),
        eb('gifts.message_text', 'is not', null),
        eb.exists(eb.selectFrom('gift_photos').select('gift_photos.id').whereRef('gift_photos.gift_id', '=', 'gifts.id')),
      ]),
    )
    .orderBy('gifts.paid_at')
    .limit(limit);
  if (isPostgres(trx)) q = q.forUpdate('gifts').skipLocked();
  return q.execute().then((rows) => rows.map((r) => r.id));
}

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
    db.selectFrom('gifts').select('message_path as path').where('message_path', 'in', paths).execute(),
    db.selectFrom('gifts').select('message_poster_path as path').where('message_poster_path', 'in', paths).execute(),
    db.selectFrom('gift_photos').select('storage_path as path').where('storage_path', 'in', paths).execute(),
  ]).then((found) => found.flat());
