import type { Executor } from '../../db/database.ts';
import type { PlanId } from '@giftlens/contract/plans';
import { isPostgres } from '../../db/dialect.ts';

/**
 * Unpaid gifts (draft or message uploaded, never paid) with no activity since `cutoff`: the gift row, its upload
 * intents, its photos and its orders are all older. A gift with a paid order is never a candidate, even if the
 * payment has not reached the gift yet. On PostgreSQL the rows are locked with SKIP LOCKED: two workers never take
 * the same gift, and a gift another transaction is writing (a payment, a new photo or upload) is skipped.
 */
export function lockStaleUnpaidGifts(trx: Executor, cutoff: string, limit: number) {
  let q = trx
    .selectFrom('gifts')
    .select('gifts.id')
    .where('gifts.status', '!=', 'active')
    .where('gifts.paid_at', 'is', null)
    // updated_at is never before created_at: untouched since the cutoff means older than it too.
    .where('gifts.updated_at', '<', cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('orders')
            .select('orders.id')
            .whereRef('orders.gift_id', '=', 'gifts.id')
            .where((o) => o.or([o('orders.status', '=', 'paid'), o('orders.updated_at', '>=', cutoff)])),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('upload_intents')
            .select('upload_intents.id')
            .whereRef('upload_intents.gift_id', '=', 'gifts.id')
            .where('upload_intents.created_at', '>=', cutoff),
        ),
      ),
    )
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

export class GiftChangedError extends Error {
  constructor() {
    super('a gift picked for clean-up changed meanwhile');
    this.name = 'GiftChangedError';
  }
}

/**
 * Deletes these gifts and every row that hangs off them, children first (orders and scheduled messages have no
 * cascade). Call it in a transaction: if any gift turns out paid after all, it throws so everything rolls back.
 */
export async function deleteUnpaidGifts(trx: Executor, giftIds: string[]): Promise<number> {
  if (giftIds.length === 0) return 0;
  await trx.deleteFrom('gift_photos').where('gift_id', 'in', giftIds).execute();
  await trx.deleteFrom('upload_intents').where('gift_id', 'in', giftIds).execute();
  // A gift whose order was paid meanwhile is not unpaid any more: everything rolls back.
  const paid = await trx.selectFrom('orders').select('id').where('gift_id', 'in', giftIds).where('status', '=', 'paid').execute();
  if (paid.length > 0) throw new GiftChangedError();
  await trx.deleteFrom('orders').where('gift_id', 'in', giftIds).execute();
  await trx.deleteFrom('scheduled_messages').where('gift_id', 'in', giftIds).execute();
  await trx.deleteFrom('reveal_grants').where('gift_id', 'in', giftIds).execute();
  await trx.deleteFrom('reactions').where('gift_id', 'in', giftIds).execute();
  await trx
    .deleteFrom('scan_failures')
    .where(
      'scope',
      'in',
      giftIds.map((id) => `gift:${id}`),
    )
    .execute();
  const res = await trx
    .deleteFrom('gifts')
    .where('id', 'in', giftIds)
    .where('status', '!=', 'active')
    .where('paid_at', 'is', null)
    .executeTakeFirst();
  const deleted = Number(res.numDeletedRows);
  if (deleted !== giftIds.length) throw new GiftChangedError();
  return deleted;
}

/** Upload intents whose signed URL expired before `cutoff`, oldest first, locked (PostgreSQL) for this worker. */
export function lockExpiredIntents(trx: Executor, cutoff: string, limit: number) {
  let q = trx
    .selectFrom('upload_intents')
    .select(['id', 'file_path', 'status'])
    .where('expires_at', '<', cutoff)
    .orderBy('expires_at')
    .limit(limit);
  if (isPostgres(trx)) q = q.forUpdate().skipLocked();
  return q.execute();
}

export async function deleteIntents(trx: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await trx.deleteFrom('upload_intents').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Of these storage paths, the ones a row still names: a message, its poster, a photo, an upload, a reaction. */
export async function referencedPaths(db: Executor, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const found = await Promise.all([
    db.selectFrom('gifts').select('message_path as path').where('message_path', 'in', paths).execute(),
    db.selectFrom('gifts').select('message_poster_path as path').where('message_poster_path', 'in', paths).execute(),
    db.selectFrom('gift_photos').select('storage_path as path').where('storage_path', 'in', paths).execute(),
    db.selectFrom('upload_intents').select('file_path as path').where('file_path', 'in', paths).execute(),
    db.selectFrom('reactions').select('file_path as path').where('file_path', 'in', paths).execute(),
    db.selectFrom('reactions').select('poster_path as path').where('poster_path', 'in', paths).execute(),
  ]);
  return new Set(found.flat().map((r) => r.path).filter((p): p is string => p !== null));
}

/**
 * Render jobs that ended (done, dead or cancelled) before `cutoff` and may have left files behind: every one that
 * took more than one attempt or did not finish well. In id order after `afterId`, at most `limit`.
 */
export function endedRenderJobs(db: Executor, kinds: readonly string[], cutoff: string, afterId: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'payload', 'attempts'])
    .where('kind', 'in', kinds)
    .where('status', 'in', ['done', 'dead', 'cancelled'])
    .where('finished_at', '<', cutoff)
    .where((eb) => eb.or([eb('attempts', '>', 1), eb('status', '!=', 'done')]))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

// The single-table sweeps below delete at most `limit` rows per call through a keyed subquery, which both
// databases accept (DELETE … LIMIT is SQLite-only). Running one twice, or in two workers at once, is harmless.

export async function deleteExpiredCodes(db: Executor, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('verification_codes')
    .where('id', 'in', (eb) =>
      eb.selectFrom('verification_codes').select('id').where('expires_at', '<', cutoff).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteOldResends(db: Executor, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('code_resends')
    .where((eb) =>
      eb(
        eb.refTuple('purpose', 'destination'),
        'in',
        eb
          .selectFrom('code_resends as r')
          .select(['r.purpose', 'r.destination'])
          .where('r.sent_at', '<', cutoff)
          .limit(limit)
          .$asTuple('purpose', 'destination'),
      ),
    )
    // Re-checked on the row itself: a slot taken again meanwhile is live.
    .where('sent_at', '<', cutoff)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteExpiredSessions(db: Executor, now: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('sessions')
    .where('token_hash', 'in', (eb) =>
      eb.selectFrom('sessions').select('token_hash').where('expires_at', '<', now).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteExpiredGrants(db: Executor, now: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('reveal_grants')
    .where('token_hash', 'in', (eb) =>
      eb.selectFrom('reveal_grants').select('token_hash').where('expires_at', '<', now).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteOldScanFailures(db: Executor, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('scan_failures')
    .where('id', 'in', (eb) =>
      eb.selectFrom('scan_failures').select('id').where('created_at', '<', cutoff).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteOldWebhookEvents(db: Executor, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('webhook_events')
    .where('id', 'in', (eb) =>
      eb.selectFrom('webhook_events').select('id').where('received_at', '<', cutoff).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Paid orders of deleted gifts (amount, date and provider ids kept for accounting) once their paid date is
 * older than `paidBefore`.
 */
export async function deleteOldOrphanOrders(db: Executor, paidBefore: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('orders')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('orders')
        .select('orders.id')
        .where('orders.paid_at', '<', paidBefore)
        .where((w) => w.not(w.exists(w.selectFrom('gifts').select('gifts.id').whereRef('gifts.id', '=', 'orders.gift_id'))))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Finished jobs (done or cancelled) finished before `finishedBefore`, dead ones before `deadBefore`. */
export async function deleteOldJobs(db: Executor, finishedBefore: string, deadBefore: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('status', 'in', ['done', 'cancelled']), w('finished_at', '<', finishedBefore)]),
            w.and([w('status', '=', 'dead'), w('finished_at', '<', deadBefore)]),
          ]),
        )
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
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
        eb.exists(
          eb
            .selectFrom('gift_photos')
            .select('gift_photos.id')
            .whereRef('gift_photos.gift_id', '=', 'gifts.id'),
        ),
      ]),
    )
    .orderBy('gifts.paid_at')
    .limit(limit);
  if (isPostgres(trx)) q = q.forUpdate('gifts').skipLocked();
  return q.execute().then((rows) => rows.map((r) => r.id));
}

/** Empties ended gifts: message, text, photos and their recognition data go; the gift and its payment stay. */
export async function purgeGiftContent(trx: Executor, giftIds: string[], nowIso: string): Promise<number> {
  if (giftIds.length === 0) return 0;
  await trx.deleteFrom('gift_photos').where('gift_id', 'in', giftIds).execute();
  await trx.deleteFrom('upload_intents').where('gift_id', 'in', giftIds).execute();
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

/** Photos enrolled before the rating existed (rating NULL), in id order after `afterId`, at most `limit`. */
export function unratedPhotos(db: Executor, afterId: string, limit: number) {
  return db
    .selectFrom('gift_photos')
    .select(['id', 'storage_path'])
    .where('rating', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Writes a photo's rating, only while it has none (a second worker, or a later run, changes nothing). */
export async function ratePhoto(
  db: Executor,
  id: string,
  q: { score: number; recognisable: boolean; message: string | null; rating: number; reasons: string },
): Promise<number> {
  const res = await db
    .updateTable('gift_photos')
    .set({
      quality: q.score,
      recognisable: q.recognisable ? 1 : 0,
      quality_message: q.message,
      rating: q.rating,
      quality_reasons: q.reasons,
    })
    .where('id', '=', id)
    .where('rating', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
