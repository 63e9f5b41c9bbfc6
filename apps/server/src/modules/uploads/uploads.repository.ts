import type { ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { countBefore } from '../../db/sweep.ts';
import type { NewUploadIntent, UploadIntent } from './uploads.table.ts';

export async function insertIntent(db: Executor, intent: NewUploadIntent): Promise<void> {
  await db.insertInto('upload_intents').values(intent).execute();
}

export const findIntent = (db: Executor, id: string): Promise<UploadIntent | undefined> =>
  db.selectFrom('upload_intents').selectAll().where('id', '=', id).executeTakeFirst();

export const findIntentByPath = (db: Executor, giftId: string, filePath: string) =>
  db
    .selectFrom('upload_intents')
    .selectAll()
    .where('gift_id', '=', giftId)
    .where('file_path', '=', filePath)
    .executeTakeFirst();

export async function markIntentUploaded(db: Executor, id: string, size: number): Promise<void> {
  await db.updateTable('upload_intents').set({ status: 'uploaded', size }).where('id', '=', id).execute();
}

export async function markIntentConfirmed(db: Executor, id: string): Promise<void> {
  await db.updateTable('upload_intents').set({ status: 'confirmed' }).where('id', '=', id).execute();
}

export async function deleteIntent(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('upload_intents').where('id', '=', id).execute();
}

/** For a query on gifts: the gift has an upload intent made since `cutoff`. */
export const intentMadeSince = (eb: ExpressionBuilder<Database, 'gifts'>, cutoff: string) =>
  eb.exists(
    eb
      .selectFrom('upload_intents')
      .select('upload_intents.id')
      .whereRef('upload_intents.gift_id', '=', 'gifts.id')
      .where('upload_intents.created_at', '>=', cutoff),
  );

/** The upload targets of these gifts (files a browser may have written). */
export const intentFilesOf = (db: Executor, giftIds: string[]) =>
  db.selectFrom('upload_intents').select('file_path').where('gift_id', 'in', giftIds).execute();

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

export const expiredIntentsLeft = (db: Executor, cutoff: string) => countBefore(db, 'upload_intents', 'id', 'expires_at', cutoff);

export async function deleteIntents(trx: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await trx.deleteFrom('upload_intents').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Every upload intent of these gifts (a gift emptied at its plan's end). */
export async function deleteIntentsOfGifts(trx: Executor, giftIds: string[]): Promise<void> {
  if (giftIds.length > 0) await trx.deleteFrom('upload_intents').where('gift_id', 'in', giftIds).execute();
}

/** Of these storage paths, the ones an upload intent names. */
export const intentPathsAmong = (db: Executor, paths: string[]) =>
  db.selectFrom('upload_intents').select('file_path as path').where('file_path', 'in', paths).execute();
