import { texts } from '@giftlens/contract/texts';
import { GiftSummaryResponse } from '@giftlens/contract/sender';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { expect } from 'vitest';
import { GIFT_FIELDS, submitGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, type Harness } from './helpers/harness.ts';
import { giftPhoto, multipart } from './helpers/media.ts';

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function giftCount(h: Harness, senderEmail: string) {
  const rows = await h.db
    .selectFrom('gifts')
    .innerJoin('senders', 'senders.id', 'gifts.sender_id')
    .select('gifts.id')
    .where('senders.email', '=', senderEmail)
    .execute();
  return rows.length;
}

const without = (key: string) => Object.fromEntries(Object.entries(GIFT_FIELDS).filter(([k]) => k !== key));

describeEachDatabase('gifts', (get) => {
  it('a recipient name or a sender first name with a line break or a direction override is a 400 (issue 37)', async () => {
    const h = get();
    const { cookie, email } = await signIn(h, undefined, null);
    for (const name of ['Maya\r\nBcc: everyone@example.com', 'Maya\nSecond line', 'Evil\u202egnp.exe', 'Isolated\u2066x\u2069', 'Tab\there']) {
      const res = await submitGift(h, cookie, { ...GIFT_FIELDS, recipientName: name }, [giftPhoto()]);
      expect(res.statusCode, name).toBe(400);
      expect(json(res), name).toMatchObject({ code: 'recipient_name_invalid', error: texts.sender.recipientNameInvalid });
      const named = await h.app.inject({ method: 'POST', url: '/api/gift-sender/update-user', headers: { cookie }, payload: { firstName: name } });
      expect(named.statusCode, name).toBe(400);
      expect(json(named).error, name).toBe(texts.sender.firstNameInvalid);
    }
    expect(await h.db.selectFrom('gifts').select('id').where('recipient_name', 'like', '%Maya%').execute()).toHaveLength(0);
    const sender = await h.db.selectFrom('senders').select('first_name').where('email', '=', email).executeTakeFirstOrThrow();
    expect(sender.first_name).toBeNull();
    // Names in other scripts, with accents, apostrophes and hyphens are fine.
    expect((await submitGift(h, cookie, { ...GIFT_FIELDS, recipientName: 'Zoë O’Neil-Ærø 李娜' }, [giftPhoto()])).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'POST', url: '/api/gift-sender/update-user', headers: { cookie }, payload: { firstName: 'Ana-María' } })).statusCode).toBe(200);
  });

  it('creates a draft gift with a normalised photo and returns a 128-bit id', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const res = await submitGift(h, cookie, { ...GIFT_FIELDS, senderEmail: 'ignored@example.com' });
    expect(res.statusCode).toBe(200);
    const { giftId, success } = json<{ giftId: string; success: boolean }>(res);
    expect(success).toBe(true);
    expect(giftId).toMatch(/^[0-9a-f]{32}$/);

    const gift = await h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
    expect(gift).toMatchObject({
      status: 'draft',
      recipient_name: 'Maya',
      recipient_email: 'maya@example.com',
      occasion: 'birthday',
      plan_id: 'premium_us',
      paid_at: null,
    });
    const photos = await h.db.selectFrom('gift_photos').selectAll().where('gift_id', '=', giftId).execute();
    expect(photos).toHaveLength(1);
    const stored = await h.media.readHead(photos[0]?.storage_path ?? '', 10_000_000);
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(1600);
  });

  it('accepts up to three photos and refuses a fourth', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const photo = giftPhoto();
    const png = await sharp(photo).resize(400).png().toBuffer();
    const three = await submitGift(h, cookie, GIFT_FIELDS, [photo, png, photo]);
    expect(three.statusCode).toBe(200);
    const giftId = json<{ giftId: string }>(three).giftId;
    const photos = await h.db.selectFrom('gift_photos').select('position').where('gift_id', '=', giftId).orderBy('position').execute();
    expect(photos.map((p) => p.position)).toEqual([0, 1, 2]);

    const before = (await filesUnder(h.mediaDir)).length;
    const four = await submitGift(h, cookie, GIFT_FIELDS, [photo, photo, photo, photo]);
    expect(four.statusCode).toBe(400);
    expect(json(four)).toMatchObject({ error: texts.sender.tooManyGiftImages });
    expect(await giftCount(h, email)).toBe(1);
    expect((await filesUnder(h.mediaDir)).length).toBe(before);
  });

  it('answers each missing field with the spec text, in the spec order', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const cases: [Record<string, string>, Buffer[], string][] = [
      [without('recipientName'), [giftPhoto()], 'Recipient name is required'],
      [{ ...GIFT_FIELDS, recipientName: '   ' }, [giftPhoto()], 'Recipient name is required'],
      [without('recipientEmail'), [giftPhoto()], 'Recipient contact information is required'],
      [GIFT_FIELDS, [], 'Gift image is required'],
      [without('occasion'), [giftPhoto()], 'Occasion is required'],
      [{ ...GIFT_FIELDS, occasion: 'halloween' }, [giftPhoto()], 'Occasion is required'],
      [without('planId'), [giftPhoto()], texts.sender.planRequired],
      [{ ...GIFT_FIELDS, recipientEmail: 'not-an-email' }, [giftPhoto()], texts.sender.invalidEmail],
      // Name first even when everything is missing.
      [{}, [], 'Recipient name is required'],
      [{ recipientName: 'Maya' }, [], 'Recipient contact information is required'],
    ];
    for (const [fields, images, message] of cases) {
      const res = await submitGift(h, cookie, fields, images);
      expect(res.statusCode, message).toBe(400);
      expect(json(res)).toMatchObject({ success: false, error: message });
    }
    expect(await giftCount(h, email)).toBe(0);
  });

  it('a recipient name over 80 characters is refused in words a user reads, and nothing is stored', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const res = await submitGift(h, cookie, { ...GIFT_FIELDS, recipientName: 'M'.repeat(81) });
    expect(res.statusCode).toBe(400);
    expect(json(res).error).toBe(texts.sender.recipientNameTooLong);
    expect(await giftCount(h, email)).toBe(0);
  });

  it('accepts a phone number as the recipient contact', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const res = await submitGift(h, cookie, { ...without('recipientEmail'), recipientPhone: '+15551234567' });
    expect(res.statusCode).toBe(200);
  });

  it('sniffs the real image type: a text file named .jpg and a truncated JPEG are refused', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const fake = await submitGift(h, cookie, GIFT_FIELDS, [Buffer.from('this is not an image at all, just text')]);
    expect(fake.statusCode).toBe(400);
    expect(json(fake)).toMatchObject({ error: texts.sender.giftImageInvalid, code: 'gift_image_invalid' });
    const truncated = await submitGift(h, cookie, GIFT_FIELDS, [giftPhoto().subarray(0, 2000)]);
    expect(truncated.statusCode).toBe(400);
    expect(json(truncated).error).toBe(texts.sender.giftImageInvalid);
    expect(await giftCount(h, email)).toBe(0);
  });

  it('refuses an image over 10 MB', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const big = Buffer.concat([giftPhoto(), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await submitGift(h, cookie, GIFT_FIELDS, [big]);
    expect(res.statusCode).toBe(413);
    expect(json(res)).toMatchObject({ error: texts.sender.giftImageInvalid });
    expect(await giftCount(h, email)).toBe(0);
  });

  it('needs a session', async () => {
    const h = get();
    const body = multipart(GIFT_FIELDS, [{ name: 'giftImage', filename: 'a.jpg', type: 'image/jpeg', data: giftPhoto() }]);
    const res = await h.app.inject({ method: 'POST', url: '/api/gift-sender/submit-gift', ...body });
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({ success: false, error: texts.sender.unauthorized, code: 'unauthorized' });
  });

  it('removes the stored photos when the database insert fails (nothing half-written)', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const before = await filesUnder(h.mediaDir);
    await sql`ALTER TABLE gift_photos RENAME TO gift_photos_away`.execute(h.db);
    try {
      const res = await submitGift(h, cookie, GIFT_FIELDS, [giftPhoto(), giftPhoto()]);
      expect(res.statusCode).toBe(500);
      expect(json(res)).toEqual({ success: false, error: texts.sender.generic, code: 'internal' });
    } finally {
      await sql`ALTER TABLE gift_photos_away RENAME TO gift_photos`.execute(h.db);
    }
    expect(await giftCount(h, email)).toBe(0);
    expect((await filesUnder(h.mediaDir)).filter((f) => !f.includes('.tmp'))).toEqual(
      before.filter((f) => !f.includes('.tmp')),
    );
  });

  it('returns the checkout summary of the own gift only; a foreign gift is 404 like a missing one', async () => {
    const h = get();
    const owner = await signIn(h);
    const giftId = json<{ giftId: string }>(await submitGift(h, owner.cookie)).giftId;
    const res = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    const body = GiftSummaryResponse.parse(json(res));
    expect(body.gift).toMatchObject({
      giftId,
      status: 'draft',
      recipientName: 'Maya',
      recipientEmail: 'maya@example.com',
      occasion: 'birthday',
      messageType: null,
      paidAt: null,
      plan: { id: 'premium_us', name: 'Premium', price: '$1.99', currency: 'USD', amountMinor: 199, validity: '30 days' },
    });
    // The photo URL is signed and works.
    const photo = await h.app.inject({ method: 'GET', url: body.gift.giftImageUrl ?? '' });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');

    const stranger = await signIn(h);
    const foreign = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie: stranger.cookie } });
    const missing = await h.app.inject({
      method: 'GET',
      url: `/api/gift-sender/gifts/${'0'.repeat(32)}`,
      headers: { cookie: stranger.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign)).toEqual(json(missing));
    expect(json(foreign)).toEqual({ success: false, error: texts.sender.giftNotFound, code: 'gift_not_found' });
    const anon = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}` });
    expect(anon.statusCode).toBe(401);
    const malformed = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts/xyz', headers: { cookie: owner.cookie } });
    expect(malformed.statusCode).toBe(400);
  });
});
