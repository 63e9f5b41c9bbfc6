import type { Executor } from '../../db/database.ts';
import type { UploadIntent, UploadIntentsTable } from './uploads.table.ts';

export async function insertIntent(db: Executor, intent: UploadIntentsTable): Promise<void> {
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
