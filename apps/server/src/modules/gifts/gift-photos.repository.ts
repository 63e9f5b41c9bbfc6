import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { countUpTo } from '../../db/sweep.ts';
import type { NewGiftPhoto } from './gifts.table.ts';

// The gift_photos table: a gift's reference photos and what the matcher enrolled of them.

export async function insertGiftPhotos(db: Executor, photos: NewGiftPhoto[]): Promise<void> {
  if (photos.length > 0) await db.insertInto('gift_photos').values(photos).execute();
}

export const listGiftPhotos = (db: Executor, giftId: string) =>
  db
    .selectFrom('gift_photos')
    .select(['id', 'storage_path', 'mime', 'quality', 'position'])
    .where('gift_id', '=', giftId)
    .orderBy('position')
    .execute();

/** The first photo of each gift (its position 0). */
export const firstPhotos = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('gift_photos').select(['gift_id', 'storage_path']).where('gift_id', 'in', giftIds).where('position', '=', 0).execute();

/** The rated photos of these gifts: rating, its continuous score and reasons (unrated photos are left out). */
export const ratedPhotos = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('gift_photos')
        .select(['gift_id', 'rating', 'quality', 'quality_reasons'])
        .where('gift_id', 'in', giftIds)
        .where('rating', 'is not', null)
        .execute();

/**
 * The features of every photo of the `limit` newest active gifts of one owner, except `exceptGiftId`: what a look-alike
 * check compares a new photo with. `recipientEmail`: that recipient's gifts, whoever sent them (the recipient's scan
 * sees the same); `senderId`: the sender's own gifts, for anyone (two products of one brand, decision 056).
 */
export async function activePhotoFeatures(
  db: Executor,
  owner: { recipientEmail: string } | { senderId: string },
  exceptGiftId: string,
  limit: number,
): Promise<Buffer[]> {
  const base = db.selectFrom('gifts').select('id');
  const gifts = ('recipientEmail' in owner ? base.where('recipient_email', '=', owner.recipientEmail) : base.where('sender_id', '=', owner.senderId))
    .where('status', '=', 'active')
    .where('id', '!=', exceptGiftId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit);
  const rows = await db.selectFrom('gift_photos').select('features').where('gift_id', 'in', gifts).execute();
  return rows.flatMap((r) => (r.features ? [r.features] : []));
}

/**
 * The photos of these gifts, in photo order, and whether each is enrolled (and by which recipe): not the features
 * themselves, which the matcher's workers keep by `referenceKey` (decision 045); `featuresOf` reads those a worker lacks.
 */
export const listPhotoReferences = (db: Executor, giftIds: string[]) =>
  giftIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('gift_photos')
        .select((eb) => ['id', 'gift_id', 'storage_path', 'features_recipe', eb('features', 'is not', null).as('enrolled')])
        .where('gift_id', 'in', giftIds)
        .orderBy('gift_id')
        .orderBy('position')
        .execute();

/**
 * The name the matcher's workers keep a photo's features by (decision 045): the photo's id and the recipe that enrolled
 * them, so features enrolled again (`reenrolPhoto`) are new bytes under a new key, never stale bytes under the old one.
 */
export const referenceKey = (photoId: string, recipe: number): string => `${photoId}:${recipe}`;

/** The photo id a `referenceKey` names. */
const photoOf = (key: string): string => (key.includes(':') ? key.slice(0, key.lastIndexOf(':')) : key);

/**
 * The enrolled features of these references (those a matcher worker lacks), by `referenceKey`. Features enrolled
 * again since the key was listed come under the key asked for: as valid as the older, and the next scan lists the
 * newer key.
 */
export async function featuresOf(db: Executor, keys: string[]): Promise<Map<string, Buffer>> {
  const byId = new Map(keys.map((k) => [photoOf(k), k]));
  const rows = await db.selectFrom('gift_photos').select(['id', 'features']).where('id', 'in', [...byId.keys()]).execute();
  return new Map(rows.flatMap((r) => (r.features ? [[byId.get(r.id)!, r.features] as const] : [])));
}

/** Writes a photo's features once, while it has none (a photo enrolled before the matcher existed, on first scan). */
export async function setPhotoFeatures(
  db: Executor,
  photoId: string,
  f: { features: Buffer; recipe: number; quality: number; recognisable: boolean; message: string | null },
) {
  await db
    .updateTable('gift_photos')
    .set({ features: f.features, features_recipe: f.recipe, quality: f.quality, recognisable: f.recognisable ? 1 : 0, quality_message: f.message })
    .where('id', '=', photoId)
    .where('features', 'is', null)
    .execute();
}

/** Photos whose features an older recipe than `recipe` enrolled, in id order after `afterId`, at most `limit`. */
export function photosOfOlderRecipe(db: Executor, recipe: number, afterId: string, limit: number) {
  return olderRecipeAfter(db, recipe, afterId).orderBy('id').limit(limit).execute();
}

/**
 * gift_photos_recipe_53_idx: `features_recipe < 53`, spelled with the literal (decision 044: SQLite matches a partial
 * index's terms exactly). A photo not enrolled at all (0) is enrolled here too, as its first scan would.
 */
const olderRecipeAfter = (db: Executor, recipe: number, afterId: string) =>
  db.selectFrom('gift_photos').select(['id', 'storage_path']).where('features_recipe', '<', sql.lit(recipe)).where('id', '>', afterId);

export const photosOfOlderRecipeLeft = (db: Executor, recipe: number, afterId: string) => countUpTo(db, olderRecipeAfter(db, recipe, afterId));

/**
 * Writes features enrolled again by `recipe`, only while the photo's are older (a second worker, or a later run,
 * changes nothing). The rating and quality stay: they are the sender's, from the first enrolment.
 */
export async function reenrolPhoto(db: Executor, id: string, features: Buffer, recipe: number): Promise<number> {
  const res = await db
    .updateTable('gift_photos')
    .set({ features, features_recipe: recipe })
    .where('id', '=', id)
    .where('features_recipe', '<', sql.lit(recipe))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Photos enrolled before the recognisability rating existed (rating NULL), in id order after `afterId`, at most `limit`. */
export function unratedPhotos(db: Executor, afterId: string, limit: number) {
  return unratedAfter(db, afterId).orderBy('id').limit(limit).execute();
}

/** gift_photos_unrated_idx: `rating IS NULL`, in id order. */
const unratedAfter = (db: Executor, afterId: string) =>
  db.selectFrom('gift_photos').select(['id', 'storage_path']).where('rating', 'is', null).where('id', '>', afterId);

export const unratedPhotosLeft = (db: Executor, afterId: string) => countUpTo(db, unratedAfter(db, afterId));

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
