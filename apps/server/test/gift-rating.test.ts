import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { QUALITY_REASONS, SubmitGiftResponse, AddGiftPhotoResponse } from '@giftlens/contract/sender';
import sharp from 'sharp';
import { beforeAll, expect } from 'vitest';
import { GIFT_FIELDS, submitGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { multipart } from './helpers/media.ts';
import { activeGift, datasetPhoto } from './helpers/recipient.ts';
import { createHousekeepingService } from '../src/modules/housekeeping/housekeeping.service.ts';

let same: Buffer, other: Buffer, plain: Buffer;
beforeAll(async () => {
  same = datasetPhoto('reference/001.jpg');
  other = datasetPhoto('reference/002.jpg');
  plain = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c8c8c8' } }).jpeg().toBuffer();
});

async function submitFor(h: Harness, cookie: string, recipientEmail: string, photo: Buffer) {
  const res = await submitGift(h, cookie, { ...GIFT_FIELDS, recipientEmail }, [photo]);
  expect(res.statusCode).toBe(200);
  return SubmitGiftResponse.parse(json(res));
}

async function addPhoto(h: Harness, cookie: string, giftId: string, photo: Buffer) {
  const body = multipart({}, [{ name: 'giftImage', filename: 'angle.jpg', type: 'image/jpeg', data: photo }]);
  const res = await h.app.inject({ method: 'POST', url: `/api/gift-sender/gifts/${giftId}/photos`, headers: { ...body.headers, cookie }, payload: body.payload });
  expect(res.statusCode).toBe(200);
  return { body: AddGiftPhotoResponse.parse(json(res)), raw: res.body };
}

describeEachDatabase('gift photo rating and look-alikes', (get) => {
  it('answers and stores a 1-5 rating with the reasons when it is low', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const good = await submitFor(h, cookie, uniqueEmail('maya'), same);
    expect(good.quality).toMatchObject({ recognisable: true, reasons: [] });
    expect(good.quality!.rating).toBeGreaterThanOrEqual(4);

    const flat = await submitFor(h, cookie, uniqueEmail('maya'), plain);
    expect(flat.quality).toMatchObject({ recognisable: false, rating: 1, reasons: ['plain'] });
    const row = await h.db.selectFrom('gift_photos').select(['rating', 'quality_reasons', 'recognisable']).where('gift_id', '=', flat.giftId).executeTakeFirstOrThrow();
    expect(row).toEqual({ rating: 1, quality_reasons: 'plain', recognisable: 0 });

    // another angle: the new photo's rating comes back and is stored beside the first
    const added = await addPhoto(h, cookie, flat.giftId, same);
    expect(added.body.quality.rating).toBe(good.quality!.rating);
    expect(added.body.photoCount).toBe(2);
    const ratings = await h.db.selectFrom('gift_photos').select('rating').where('gift_id', '=', flat.giftId).orderBy('position').execute();
    expect(ratings.map((r) => r.rating)).toEqual([1, good.quality!.rating]);
  });

  it('rates photos enrolled before the rating existed, a few per run, as enrolment did; My gifts then shows it', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const gifts = [await submitFor(h, cookie, uniqueEmail('maya'), same), await submitFor(h, cookie, uniqueEmail('maya'), plain)];
    const angle = await addPhoto(h, cookie, gifts[1]!.giftId, other);
    const ids = gifts.map((g) => g.giftId);
    const columns = ['id', 'rating', 'quality_reasons', 'recognisable', 'quality', 'quality_message'] as const;
    const rows = () => h.db.selectFrom('gift_photos').select(columns).where('gift_id', 'in', ids).orderBy('id').execute();
    const enrolled = await rows();
    expect(enrolled).toHaveLength(3);
    const listed = async () => {
      const all = MyGiftsResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } }))).gifts;
      return ids.map((id) => all.find((g) => g.id === id)?.recognisability);
    };
    // What My gifts shows: the best photo's rating and its reasons.
    const shownAtEnrolment = await listed();
    expect(shownAtEnrolment).toEqual([
      { rating: gifts[0]!.quality!.rating, reasons: [] },
      { rating: angle.body.quality.rating, reasons: angle.body.quality.reasons },
    ]);

    // As photos enrolled before migration 20261123120000_photo_rating are: no rating, the older quality columns.
    await h.db
      .updateTable('gift_photos')
      .set({ rating: null, quality_reasons: null, quality: 0.5, recognisable: 1, quality_message: null })
      .where('gift_id', 'in', ids)
      .execute();
    expect(await listed()).toEqual([null, null]);

    const warned: object[] = [];
    const log = { info: () => undefined, warn: (details: object) => warned.push(details), error: () => undefined };
    const housekeeping = createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log, recogniser: h.recogniser, photoRatingsPerRun: 2 });
    expect((await housekeeping.run()).photoRatings).toBe(2);
    expect((await housekeeping.run()).photoRatings).toBe(1);
    expect((await housekeeping.run()).photoRatings).toBe(0);
    // Exactly what enrolment stored, features untouched; the sender's page shows it again.
    expect(await rows()).toEqual(enrolled);
    expect(await listed()).toEqual(shownAtEnrolment);
    expect(warned).toEqual([]);

    // A photo whose file cannot be read is logged and stays unrated; the next run tries it again.
    const lost = await submitFor(h, cookie, uniqueEmail('maya'), other);
    const photo = await h.db.selectFrom('gift_photos').select(['id', 'storage_path']).where('gift_id', '=', lost.giftId).executeTakeFirstOrThrow();
    await h.db.updateTable('gift_photos').set({ rating: null, quality_reasons: null }).where('id', '=', photo.id).execute();
    await h.media.delete(photo.storage_path);
    expect((await housekeeping.run()).photoRatings).toBe(0);
    expect(warned).toEqual([expect.objectContaining({ photoId: photo.id })]);
    expect((await h.db.selectFrom('gift_photos').select('rating').where('id', '=', photo.id).executeTakeFirstOrThrow()).rating).toBeNull();
  });

  it('names each reason with a contract value', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const blurred = await sharp(other).blur(6).jpeg({ quality: 90 }).toBuffer();
    const res = await submitFor(h, cookie, uniqueEmail('maya'), blurred);
    expect(res.quality!.reasons).toContain('blurred');
    for (const r of res.quality!.reasons) expect(QUALITY_REASONS).toContain(r);
  });

  it('warns when an active gift for the same recipient e-mail has a photo a scan cannot tell apart', async () => {
    const h = get();
    const recipient = uniqueEmail('twin');
    const first = (await signIn(h, uniqueEmail('first'))).cookie;
    const firstGift = await activeGift(h, first, { photo: same, recipientEmail: recipient });
    // a draft (unpaid) gift with the same photo is not in the recipient's scan: it never counts
    await activeGift(h, first, { photo: other, recipientEmail: recipient, pay: false });

    const second = (await signIn(h, uniqueEmail('second'))).cookie;
    const twin = await submitFor(h, second, recipient.toUpperCase(), same);
    expect(twin.lookalike).toBe(true);
    // yes/no only: nothing of the other gift
    expect(JSON.stringify(twin)).not.toContain(firstGift);

    expect((await submitFor(h, second, recipient, other)).lookalike).toBe(false);
    expect((await submitFor(h, second, uniqueEmail('someone-else'), same)).lookalike).toBe(false);
    expect((await submitFor(h, second, recipient, plain)).lookalike).toBe(false);

    // the same check when another angle is added
    const distinct = await submitFor(h, second, recipient, other);
    const again = await addPhoto(h, second, distinct.giftId, same);
    expect(again.body.lookalike).toBe(true);
    expect(again.raw).not.toContain(firstGift);
    const own = await activeGift(h, second, { photo: other, recipientEmail: uniqueEmail('solo') });
    expect((await addPhoto(h, second, own, same)).body.lookalike).toBe(false);
  });

  it("warns when one of the sender's own active gifts, for anyone, looks the same (two products of one brand, decision 056)", async () => {
    const h = get();
    const sender = (await signIn(h, uniqueEmail('brand-fan'))).cookie;
    await activeGift(h, sender, { photo: same, recipientEmail: uniqueEmail('aunt') });
    const twin = await submitFor(h, sender, uniqueEmail('uncle'), same);
    expect(twin.lookalike).toBe(true);
    expect((await submitFor(h, sender, uniqueEmail('cousin'), other)).lookalike).toBe(false);
    // another sender's gift to someone else is none of this sender's business
    const stranger = (await signIn(h, uniqueEmail('stranger'))).cookie;
    expect((await submitFor(h, stranger, uniqueEmail('nephew'), same)).lookalike).toBe(false);
  });
});
