import { afterAll, beforeAll, expect } from 'vitest';
import { createMatcherRecogniser, type Recogniser, type ReferenceInput, REFERENCE_RECIPE } from '../src/adapters/recogniser.ts';
import { reenrolPhoto } from '../src/modules/gifts/gift-photos.repository.ts';
import { describeEachDatabase, it } from './helpers/harness.ts';
import { directScan, newSendersGift, scanPhotos } from './helpers/recipient.ts';

/**
 * Decision 045: a scan names its gift's references by photo id (and, since decision 053, the recipe that enrolled
 * them); the matcher's workers keep them, so the features are read from the database only for a worker that lacks them.
 */

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

const matcher = createMatcherRecogniser({ size: 1 });
afterAll(() => matcher.close());

/** What the scans handed the matcher, and which keys their loaders were asked for. */
const seen: { references: ReferenceInput[][]; loaded: string[] }[] = [];
const recording: Recogniser = {
  ...matcher,
  match: (query, references) => {
    const entry = { references, loaded: [] as string[] };
    seen.push(entry);
    const wrapped = references.map((gift) =>
      gift.map((r) =>
        r instanceof Uint8Array || !r.load
          ? r
          : {
              ...r,
              load: (keys: string[]) => {
                entry.loaded.push(...keys);
                return r.load!(keys);
              },
            },
      ),
    );
    return matcher.match(query, wrapped);
  },
};

describeEachDatabase(
  'scans name references by photo id',
  (get) => {
    it('reads a photo’s features for the first scan only; the next scan finds them in the worker', async () => {
      const h = get();
      const giftId = await newSendersGift(h, photos.reference);
      const [photo] = await h.db.selectFrom('gift_photos').select('id').where('gift_id', '=', giftId).execute();
      seen.length = 0;
      for (let i = 0; i < 2; i++) expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
      expect(seen).toHaveLength(2);
      for (const s of seen) {
        expect(s.references).toHaveLength(1);
        const ref = s.references[0]![0]!;
        expect(ref instanceof Uint8Array ? null : { key: ref.key, bytes: ref.bytes }).toEqual({ key: `${photo!.id}:${REFERENCE_RECIPE}`, bytes: undefined });
      }
      expect(seen.map((s) => s.loaded)).toEqual([[`${photo!.id}:${REFERENCE_RECIPE}`], []]);
    });

    it('enrols a photo stored without features on its first scan and hands its bytes over at once', async () => {
      const h = get();
      const giftId = await newSendersGift(h, photos.reference);
      // a photo from before the matcher: a new row (new id), no features
      const [row] = await h.db.selectFrom('gift_photos').selectAll().where('gift_id', '=', giftId).execute();
      const id = `${row!.id}-old`;
      await h.db.deleteFrom('gift_photos').where('gift_id', '=', giftId).execute();
      await h.db.insertInto('gift_photos').values({ ...row!, id, features: null, features_recipe: 0 }).execute();
      seen.length = 0;
      expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
      const ref = seen[0]!.references[0]![0]!;
      expect(ref instanceof Uint8Array ? null : ref.key).toBe(`${id}:${REFERENCE_RECIPE}`);
      expect(ref instanceof Uint8Array ? null : ref.bytes?.byteLength).toBeGreaterThan(0);
      expect(seen[0]!.loaded).toEqual([]);
      const stored = await h.db.selectFrom('gift_photos').select(['features', 'features_recipe']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(stored.features?.byteLength).toBe(ref instanceof Uint8Array ? -1 : ref.bytes!.byteLength);
      expect(stored.features_recipe).toBe(REFERENCE_RECIPE);
    });

    it('names features enrolled again by their new recipe, so a worker holding the older ones reads the new', async () => {
      const h = get();
      const giftId = await newSendersGift(h, photos.reference);
      const [photo] = await h.db.selectFrom('gift_photos').select(['id', 'features']).where('gift_id', '=', giftId).execute();
      // as enrolled before decision 053's recipe
      await h.db.updateTable('gift_photos').set({ features_recipe: 0 }).where('id', '=', photo!.id).execute();
      const scanKeys = async () => {
        seen.length = 0;
        expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
        const ref = seen[0]!.references[0]![0]!;
        return { key: ref instanceof Uint8Array ? null : ref.key, loaded: seen[0]!.loaded };
      };
      expect(await scanKeys()).toEqual({ key: `${photo!.id}:0`, loaded: [`${photo!.id}:0`] });
      expect(await scanKeys()).toEqual({ key: `${photo!.id}:0`, loaded: [] });
      expect(await reenrolPhoto(h.db, photo!.id, photo!.features!, REFERENCE_RECIPE)).toBe(1);
      expect(await reenrolPhoto(h.db, photo!.id, photo!.features!, REFERENCE_RECIPE)).toBe(0);
      expect(await scanKeys()).toEqual({ key: `${photo!.id}:${REFERENCE_RECIPE}`, loaded: [`${photo!.id}:${REFERENCE_RECIPE}`] });
    });
  },
  { recogniser: recording },
);
