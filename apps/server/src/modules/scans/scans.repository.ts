import type { Executor } from '../../db/database.ts';

/**
 * The photos of these gifts, in photo order, and whether each is enrolled: not the features themselves, which the
 * matcher's workers keep by photo id (decision 045); `featuresOf` reads those a worker lacks.
 */
export const listReferences = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('gift_photos')
        .select((eb) => ['id', 'gift_id', 'storage_path', eb('features', 'is not', null).as('enrolled')])
        .where('gift_id', 'in', giftIds)
        .orderBy('gift_id')
        .orderBy('position')
        .execute();

/** The enrolled features of these photos (those a matcher worker lacks), by photo id. */
export async function featuresOf(db: Executor, photoIds: string[]): Promise<Map<string, Buffer>> {
  const rows = await db.selectFrom('gift_photos').select(['id', 'features']).where('id', 'in', photoIds).execute();
  return new Map(rows.flatMap((r) => (r.features ? [[r.id, r.features] as const] : [])));
}

/**
 * Writes a photo's features once, while it has none (the matcher's workers keep features by photo id, so a photo's
 * features never change under the same id: new features are a new photo row).
 */
export async function setPhotoFeatures(
  db: Executor,
  photoId: string,
  f: { features: Buffer; quality: number; recognisable: boolean; message: string | null },
) {
  await db
    .updateTable('gift_photos')
    .set({ features: f.features, quality: f.quality, recognisable: f.recognisable ? 1 : 0, quality_message: f.message })
    .where('id', '=', photoId)
    .where('features', 'is', null)
    .execute();
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

export async function recordFailures(db: Executor, rows: { id: string; scope: string }[], now: string, pruneBefore: string) {
  await db.deleteFrom('scan_failures').where('created_at', '<', pruneBefore).execute();
  await db
    .insertInto('scan_failures')
    .values(rows.map((r) => ({ ...r, created_at: now })))
    .execute();
}

/** Takes rows back (a backup-code try that turned out right, or was not made). */
export async function deleteFailures(db: Executor, ids: string[]) {
  if (ids.length > 0) await db.deleteFrom('scan_failures').where('id', 'in', ids).execute();
}

/** The failure times of this scope since `since`, newest first (at most `limit`). */
export const recentFailures = (db: Executor, scope: string, since: string, limit: number) =>
  db
    .selectFrom('scan_failures')
    .select('created_at')
    .where('scope', '=', scope)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
