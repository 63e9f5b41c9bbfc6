import { QUALITY_REASONS, SubmitGiftResponse, AddGiftPhotoResponse } from '@giftlens/contract/sender';
import sharp from 'sharp';
import { beforeAll, expect } from 'vitest';
import { GIFT_FIELDS, submitGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { multipart } from './helpers/media.ts';
import { activeGift, datasetPhoto } from './helpers/recipient.ts';

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
});
