import type { Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Reaction, ReactionsTable } from './reactions.table.ts';

export const findReactionForGift = (db: Executor, giftId: string) =>
  db.selectFrom('reactions').selectAll().where('gift_id', '=', giftId).executeTakeFirst();

export const findReaction = (db: Executor, id: string) =>
  db.selectFrom('reactions').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The gift's one reaction row: created pending, or (when an earlier attempt never uploaded a file) reset to
 * pending under the new id. The unique gift_id decides between concurrent calls; a row with a file is never touched.
 */
export async function openReaction(
  db: Executor,
  r: { id: string; giftId: string; playbackSessionId: string; mediaDuration: number | null; now: string },
): Promise<Reaction | undefined> {
  const fresh = {
    status: 'pending' as const,
    consent_granted: null,
    consented_at: null,
    device_info: null,
    browser_info: null,
    playback_session_id: r.playbackSessionId,
    media_duration: r.mediaDuration,
    media_start_time: null,
    media_end_time: null,
    duration_seconds: null,
    sync_offset_ms: null,
    recording_quality: null,
    created_at: r.now,
    updated_at: r.now,
  };
  await db
    .insertInto('reactions')
    .values({ id: r.id, gift_id: r.giftId, file_path: null, file_mime: null, file_size: null, uploaded_at: null, ...fresh })
    .onConflict((oc) => oc.column('gift_id').doNothing())
    .execute();
  // A reset also takes the new id: an id handed out earlier (under an older grant) must not come back to life.
  await db
    .updateTable('reactions')
    .set({ ...fresh, id: r.id })
    .where('gift_id', '=', r.giftId)
    .where('file_path', 'is', null)
    .where('id', '!=', r.id)
    .execute();
  return findReactionForGift(db, r.giftId);
}

export async function updateOpenReaction(db: Executor, id: string, set: Omit<Updateable<ReactionsTable>, 'id' | 'gift_id'>) {
  const res = await db.updateTable('reactions').set(set).where('id', '=', id).where('file_path', 'is', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Attaches the recording once: only to a consented reaction that has no file yet. */
export async function attachFile(
  db: Executor,
  id: string,
  f: {
    path: string;
    mime: string;
    size: number;
    durationSeconds: number;
    mediaEndTime: number;
    syncOffsetMs: number;
    recordingQuality: string;
    now: string;
    state: 'processing' | 'ready';
  },
): Promise<boolean> {
  const res = await db
    .updateTable('reactions')
    .set({
      status: 'uploaded',
      file_path: f.path,
      file_mime: f.mime,
      file_size: f.size,
      duration_seconds: f.durationSeconds,
      media_end_time: f.mediaEndTime,
      sync_offset_ms: f.syncOffsetMs,
      recording_quality: f.recordingQuality,
      uploaded_at: f.now,
      file_state: f.state,
      updated_at: f.now,
    })
    .where('id', '=', id)
    .where('file_path', 'is', null)
    .where('consent_granted', '=', 1)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Reactions with a recording (My Gifts). */
export const recordedReactions = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('reactions')
        .select(['gift_id', 'file_path', 'file_mime', 'file_state', 'poster_path', 'uploaded_at'])
        .where('gift_id', 'in', giftIds)
        .where('file_path', 'is not', null)
        .execute();

/** The recording and poster of these gifts' reactions. */
export const reactionFilesOf = (db: Executor, giftIds: string[]) =>
  db.selectFrom('reactions').select(['file_path', 'poster_path']).where('gift_id', 'in', giftIds).execute();

/** Of these storage paths, the ones a reaction names (its recording or its poster). */
export const reactionPathsAmong = (db: Executor, paths: string[]) =>
  Promise.all([
    // `is not null` as in the partial indexes' predicates (reactions_file_path_idx, reactions_poster_path_idx).
    db.selectFrom('reactions').select('file_path as path').where('file_path', 'is not', null).where('file_path', 'in', paths).execute(),
    db.selectFrom('reactions').select('poster_path as path').where('poster_path', 'is not', null).where('poster_path', 'in', paths).execute(),
  ]).then((found) => found.flat());

interface RenderedReaction {
  path: string;
  mime: string;
  size: number;
  poster: string | null;
  now: string;
}

/** Swaps the recording to its rendition, only if the reaction still holds the file that was processed. */
export async function finishReactionRender(db: Executor, reactionId: string, original: string, r: RenderedReaction): Promise<boolean> {
  const res = await db
    .updateTable('reactions')
    .set({ file_path: r.path, file_mime: r.mime, file_size: r.size, poster_path: r.poster, file_state: 'ready', updated_at: r.now })
    .where('id', '=', reactionId)
    .where('file_path', '=', original)
    .where('file_state', '=', 'processing')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function failReactionRender(db: Executor, reactionId: string, original: string, now: string): Promise<void> {
  await db
    .updateTable('reactions')
    .set({ file_state: 'failed', updated_at: now })
    .where('id', '=', reactionId)
    .where('file_path', '=', original)
    .where('file_state', '=', 'processing')
    .execute();
}
