import { ScanResponse } from '@giftlens/contract/recipient';
import { expect } from 'vitest';
import { deserialise, serialise, upTo } from '@giftlens/matcher/features';
import { REFERENCE_RECIPE } from '../src/adapters/recogniser.ts';
import { featuresOf, referenceKey } from '../src/modules/gifts/gift-photos.repository.ts';
import { createHousekeepingService } from '../src/modules/housekeeping/housekeeping.service.ts';
import { describeEachDatabase, it, json } from './helpers/harness.ts';
import { directScan, newSendersGift, scanPhotos } from './helpers/recipient.ts';

/** A reference blob's layer count (GLF2: byte 11): 4 with decision 053's tilted views, 3 before. */
const layersOf = (features: Buffer): number => features[11]!;

describeEachDatabase('gift photos enrolled by an older matcher recipe (decision 053)', (get) => {
  it('a new photo is enrolled with the tilted views and says so; one enrolled before is enrolled again by housekeeping, a few per run', async () => {
    const h = get();
    const { reference, genuine } = await scanPhotos();
    const giftIds = [await newSendersGift(h, reference), await newSendersGift(h, reference)];
    const columns = ['id', 'features', 'features_recipe', 'rating', 'quality', 'quality_reasons', 'recognisable', 'quality_message'] as const;
    const rows = () => h.db.selectFrom('gift_photos').select(columns).where('gift_id', 'in', giftIds).orderBy('id').execute();
    const enrolled = await rows();
    expect(enrolled.map((r) => [r.features_recipe, layersOf(r.features!)])).toEqual([[REFERENCE_RECIPE, 4], [REFERENCE_RECIPE, 4]]);

    // As photos enrolled before migration 20261127040000_features_recipe are: recipe 0, grey and colour layers only.
    for (const r of enrolled) {
      const old = Buffer.from(serialise(upTo(deserialise(new Uint8Array(r.features!)), 3)));
      await h.db.updateTable('gift_photos').set({ features: old, features_recipe: 0 }).where('id', '=', r.id).execute();
    }
    // They still scan as they did.
    const before = await directScan(h, giftIds[0]!, genuine);
    expect(before.statusCode).toBe(200);
    expect(ScanResponse.parse(json(before)).matchResult.matched).toBe(true);

    const warned: object[] = [];
    const log = { info: () => undefined, warn: (details: object) => warned.push(details), error: () => undefined };
    const housekeeping = createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log, recogniser: h.recogniser, photoFeaturesPerRun: 1 });
    const first = await housekeeping.run();
    expect(first.photoFeatures).toBe(1);
    expect((await housekeeping.run()).photoFeatures).toBe(1);
    expect((await housekeeping.run()).photoFeatures).toBe(0);
    expect(warned).toEqual([]);
    // The features are those enrolment makes today; the sender's rating and quality stay as they were.
    const again = await rows();
    expect(again.map((r) => [r.features_recipe, layersOf(r.features!)])).toEqual([[REFERENCE_RECIPE, 4], [REFERENCE_RECIPE, 4]]);
    expect(again.map(({ features: _f, features_recipe: _r, ...rest }) => rest)).toEqual(enrolled.map(({ features: _f, features_recipe: _r, ...rest }) => rest));
    // And a scan still matches (scan-references.test.ts checks it names the features by their new key).
    const after = await directScan(h, giftIds[0]!, genuine);
    expect(after.statusCode).toBe(200);
    expect(ScanResponse.parse(json(after)).matchResult.matched).toBe(true);
  });

  it('a photo whose file cannot be read is logged and left for the next run', async () => {
    const h = get();
    const { reference } = await scanPhotos();
    const giftId = await newSendersGift(h, reference);
    const photo = await h.db.selectFrom('gift_photos').select(['id', 'storage_path', 'features']).where('gift_id', '=', giftId).executeTakeFirstOrThrow();
    await h.db.updateTable('gift_photos').set({ features_recipe: 0 }).where('id', '=', photo.id).execute();
    await h.media.delete(photo.storage_path);
    const warned: object[] = [];
    const log = { info: () => undefined, warn: (details: object) => warned.push(details), error: () => undefined };
    const housekeeping = createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log, recogniser: h.recogniser });
    await housekeeping.run();
    expect(warned).toContainEqual(expect.objectContaining({ photoId: photo.id }));
    const row = await h.db.selectFrom('gift_photos').select(['features_recipe', 'features']).where('id', '=', photo.id).executeTakeFirstOrThrow();
    expect(row.features_recipe).toBe(0);
    expect(row.features!.equals(photo.features!)).toBe(true);
  });

  it('features are named by photo and recipe; a worker asking by an older key gets the features there are', async () => {
    const h = get();
    const { reference } = await scanPhotos();
    const giftId = await newSendersGift(h, reference);
    const photo = await h.db.selectFrom('gift_photos').select(['id', 'features']).where('gift_id', '=', giftId).executeTakeFirstOrThrow();
    expect(referenceKey(photo.id, REFERENCE_RECIPE)).toBe(`${photo.id}:${REFERENCE_RECIPE}`);
    const old = referenceKey(photo.id, 0);
    const got = await featuresOf(h.db, [old, referenceKey('no-such-photo', 0)]);
    expect([...got.keys()]).toEqual([old]);
    expect(got.get(old)!.equals(photo.features!)).toBe(true);
  });
});
