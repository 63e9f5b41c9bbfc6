import type { Executor } from '../../db/database.ts';

interface Finished {
  path: string;
  mime: string;
  size: number;
  poster: string | null;
  now: string;
}

/** Swaps the message to its rendition, only if the gift still holds the file that was processed. */
export async function finishMessage(db: Executor, giftId: string, original: string, r: Finished): Promise<boolean> {
  const res = await db
    .updateTable('gifts')
    .set({ message_path: r.path, message_mime: r.mime, message_size: r.size, message_poster_path: r.poster, message_state: 'ready', message_error: null, updated_at: r.now })
    .where('id', '=', giftId)
    .where('message_path', '=', original)
    .where('message_state', '=', 'processing')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function failMessage(db: Executor, giftId: string, original: string, error: string, now: string): Promise<void> {
  await db
    .updateTable('gifts')
    .set({ message_state: 'failed', message_error: error, updated_at: now })
    .where('id', '=', giftId)
    .where('message_path', '=', original)
    .where('message_state', '=', 'processing')
    .execute();
}

export async function finishReaction(db: Executor, reactionId: string, original: string, r: Finished): Promise<boolean> {
  const res = await db
    .updateTable('reactions')
    .set({ file_path: r.path, file_mime: r.mime, file_size: r.size, poster_path: r.poster, file_state: 'ready', updated_at: r.now })
    .where('id', '=', reactionId)
    .where('file_path', '=', original)
    .where('file_state', '=', 'processing')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function failReaction(db: Executor, reactionId: string, original: string, now: string): Promise<void> {
  await db
    .updateTable('reactions')
    .set({ file_state: 'failed', updated_at: now })
    .where('id', '=', reactionId)
    .where('file_path', '=', original)
    .where('file_state', '=', 'processing')
    .execute();
}
