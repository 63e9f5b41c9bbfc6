
import { texts } from '@giftlens/contract/texts';
import type { GiftMessageResponse, ScanResponse } from '@giftlens/contract/recipient';
import { beforeAll, expect } from 'vitest';
import { payGift, submitGift, uploadVideo, GIFT_FIELDS } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { multipart } from './helpers/media.ts';
import { activeGift, directScan, revealCookie, scanPhotos } from './helpers/recipient.ts';

const HOUR = 60 * 60 * 1000;

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

async function giftMessage(h: Harness, giftId: string, cookie?: string) {
  return h.app.inject({
    method: 'GET',
    url: `/api/verification-recipient/gift-message/${giftId}`,
    headers: cookie ? { cookie } : {},
  });
}

describeEachDatabase('recipient scans, reveal grants and signed media', (get) => {
  let sender: string;
  /** Premium gift (10 scans, 30 days) for the direct-flow tests. */
  let giftId: string;

  beforeAll(async () => {
    const h = get();
    sender = (await signIn(h, uniqueEmail('sender'), 'Asha')).cookie;
    giftId = await activeGift(h, sender, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
  });

  it('enrols the gift photo at submit and answers its quality', async () => {
    const h = get();
    const res = await submitGift(h, sender, GIFT_FIELDS, [photos.reference]);
    expect(res.statusCode).toBe(200);
    const body = json<{ quality: { recognisable: boolean; score: number } }>(res);
    expect(body.quality.recognisable).toBe(true);
    expect(body.quality.score).toBeGreaterThan(0);
  });

  it('refuses a photo the matcher cannot read at submit, writing nothing', async () => {
    const h = get();
    const sharp = (await import('sharp')).default;
    const tiny = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#345678' } }).jpeg().toBuffer();
    const before = await h.db.selectFrom('gifts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await submitGift(h, sender, GIFT_FIELDS, [photos.reference, tiny]);
    expect(res.statusCode).toBe(400);
    expect(json(res).error).toBe(texts.sender.giftPhotoUnreadable);
    const after = await h.db.selectFrom('gifts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('flags a plain photo as hard to recognise, and adds up to 3 photos in all', async () => {
    const h = get();
    const sharp = (await import('sharp')).default;
    const plain = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c8c8c8' } }).jpeg().toBuffer();
    const res = await submitGift(h, sender, GIFT_FIELDS, [plain]);
    expect(res.statusCode).toBe(200);
    const { giftId: plainGift, quality } = json<{ giftId: string; quality: { recognisable: boolean; message?: string } }>(res);
    expect(quality.recognisable).toBe(false);
    expect(quality.message).toBeTruthy();

    const add = (image: Buffer, cookie = sender) => {
      const body = multipart({}, [{ name: 'giftImage', filename: 'more.jpg', type: 'image/jpeg', data: image }]);
      return h.app.inject({
        method: 'POST',
        url: `/api/gift-sender/gifts/${plainGift}/photos`,
        headers: { ...body.headers, cookie },
        payload: body.payload,
      });
    };
    const second = await add(photos.reference);
    expect(second.statusCode).toBe(200);
    expect(json(second)).toMatchObject({ success: true, quality: { recognisable: true }, photoCount: 2 });

    const unreadable = await add(Buffer.from('not an image at all, just text'));
    expect(unreadable.statusCode).toBe(400);
    const tiny = await add(await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } }).png().toBuffer());
    expect(tiny.statusCode).toBe(400);
    expect(json(tiny).error).toBe(texts.sender.giftPhotoUnreadable);
    // wide enough on paper, but a 2-px sliver once fitted for recognition
    const strip = await add(await sharp({ create: { width: 64, height: 20000, channels: 3, background: '#123456' } }).jpeg().toBuffer());
    expect(strip.statusCode).toBe(400);
    expect(json(strip).error).toBe(texts.sender.giftPhotoUnreadable);

    expect((await add(plain)).statusCode).toBe(200);
    const fourth = await add(plain);
    expect(fourth.statusCode).toBe(400);
    expect(json(fourth).error).toBe(texts.sender.tooManyGiftImages);
    const rows = await h.db.selectFrom('gift_photos').select(['position', 'features']).where('gift_id', '=', plainGift).execute();
    expect(rows.map((r) => r.position).sort()).toEqual([0, 1, 2]);
    expect(rows.every((r) => r.features !== null)).toBe(true);

    const stranger = (await signIn(h, uniqueEmail('stranger'))).cookie;
    expect((await add(photos.reference, stranger)).statusCode).toBe(404);
  });

  it('direct flow: a genuine photo matches, grants a reveal and returns a signed media URL', async () => {
    const h = get();
    const res = await directScan(h, giftId, photos.genuine);
    expect(res.statusCode).toBe(200);
    const body = json<ScanResponse>(res);
    expect(body).toMatchObject({
      success: true,
      giftId,
      matchResult: { matched: true, matchFound: true, giftId },
      openAIResponse: { content: 'yes' },
    });
    expect(body.giftDetails).toMatchObject({
      giftMessageUrl: `/gift-message/${giftId}`,
      gifts_message_url: `/gift-message/${giftId}`,
      senderName: 'Asha',
      sender_name: 'Asha',
      recipientName: 'Maya',
    });
    expect(body.giftDetails?.messageUrl).toMatch(/^\/media\/gifts\/[0-9a-f]{32}\/message-[0-9a-f]+\.mp4\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect(body.giftDetails?.giftImageUrl).toMatch(/^\/media\/gifts\//);
    const grant = revealCookie(res, giftId);
    expect(grant).toBeTruthy();
    const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Lax/);

    const media = await h.app.inject({ method: 'GET', url: body.giftDetails?.messageUrl ?? '' });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('video/mp4');

    const message = await giftMessage(h, giftId, grant ?? '');
    expect(message.statusCode).toBe(200);
    expect(json<GiftMessageResponse>(message)).toMatchObject({
      success: true,
      giftId,
      messageType: 'video',
      senderName: 'Asha',
      reactionsEnabled: false,
      hasReaction: false,
      planDetails: { planName: 'Premium' },
      recipientName: 'Maya',
    });
    expect(json<GiftMessageResponse>(message).messageUrl).toMatch(/^\/media\//);
  });

  it('an impostor object gets no match, no grant and no details', async () => {
    const h = get();
    const res = await directScan(h, giftId, photos.impostor);
    expect(res.statusCode).toBe(200);
    const body = json<ScanResponse>(res);
    expect(body).toMatchObject({ success: false, matchResult: { matched: false, matchFound: false }, giftDetails: null });
    expect(body.error).toBe(texts.recipient.noMatch);
    expect(revealCookie(res, giftId)).toBeNull();
  });

  it('message details need a reveal grant for that very gift; a grant expires after 5 minutes', async () => {
    const h = get();
    expect((await giftMessage(h, giftId)).statusCode).toBe(403);
    expect(json(await giftMessage(h, giftId)).error).toBe(texts.recipient.revealRequired);
    expect((await giftMessage(h, giftId, `gl_reveal_${giftId}=forged-token`)).statusCode).toBe(403);

    const scan = await directScan(h, giftId, photos.genuine);
    const grant = revealCookie(scan, giftId) ?? '';
    const other = await activeGift(h, sender, { photo: photos.reference, recipientEmail: uniqueEmail('other') });
    // The grant of one gift, presented under another gift's cookie name, opens nothing.
    expect((await giftMessage(h, other, grant.replace(giftId, other))).statusCode).toBe(403);

    const start = h.clock.now();
    h.clock.advance(5 * 60 * 1000 + 1000);
    try {
      expect((await giftMessage(h, giftId, grant)).statusCode).toBe(403);
    } finally {
      h.clock.set(start);
    }
    expect((await giftMessage(h, giftId, grant)).statusCode).toBe(200);
  });

  it('a playing message page keeps its reveal: each ask renews it 5 minutes, never beyond an hour after the scan (issue 37)', async () => {
    const h = get();
    const scan = await directScan(h, giftId, photos.genuine);
    const grant = revealCookie(scan, giftId) ?? '';
    const start = h.clock.now();
    try {
      // Asked every 4 minutes (the page's keep-alive while a message plays): 8 minutes after the scan it still opens,
      // with a fresh media link and the cookie's lifetime renewed.
      h.clock.advance(4 * 60 * 1000);
      expect((await giftMessage(h, giftId, grant)).statusCode).toBe(200);
      h.clock.advance(4 * 60 * 1000);
      const renewed = await giftMessage(h, giftId, grant);
      expect(renewed.statusCode).toBe(200);
      const fresh = json<GiftMessageResponse>(renewed).messageUrl ?? '';
      expect((await h.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
      expect(([] as string[]).concat(renewed.headers['set-cookie'] ?? []).join('\n')).toMatch(new RegExp(`gl_reveal_${giftId}=[^;]+;.*Max-Age=300`));
      // Up to an hour after the scan, asking every 4 minutes.
      for (let t = 12; t <= 56; t += 4) {
        h.clock.advance(4 * 60 * 1000);
        expect((await giftMessage(h, giftId, grant)).statusCode, `${t} minutes after the scan`).toBe(200);
      }
      // 59 minutes: the last renewal ran only to the hour; after it, a new scan is needed.
      h.clock.advance(3 * 60 * 1000);
      expect((await giftMessage(h, giftId, grant)).statusCode).toBe(200);
      h.clock.advance(60 * 1000 + 1000);
      expect((await giftMessage(h, giftId, grant)).statusCode).toBe(403);

      // A page left alone for more than 5 minutes after its last ask has lost its reveal.
      const again = revealCookie(await directScan(h, giftId, photos.genuine), giftId) ?? '';
      h.clock.advance(4 * 60 * 1000);
      expect((await giftMessage(h, giftId, again)).statusCode).toBe(200);
      h.clock.advance(5 * 60 * 1000 + 1000);
      expect((await giftMessage(h, giftId, again)).statusCode).toBe(403);
    } finally {
      h.clock.set(start);
    }
  });

  it('signed media URLs: none, tampered or expired → 403', async () => {
    const h = get();
    const scan = json<ScanResponse>(await directScan(h, giftId, photos.genuine));
    const url = scan.giftDetails?.messageUrl ?? '';
    const path = url.split('?')[0] ?? '';
    expect((await h.app.inject({ method: 'GET', url: path })).statusCode).toBe(403);
    const tampered = url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await h.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const longer = url.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 3600}`);
    expect((await h.app.inject({ method: 'GET', url: longer })).statusCode).toBe(403);

    const start = h.clock.now();
    h.clock.advance(5 * 60 * 1000 + 1000);
    try {
      expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(403);
    } finally {
      h.clock.set(start);
    }
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('refuses unreadable scans, unknown gifts and unpaid gifts clearly', async () => {
    const h = get();
    const text = await directScan(h, giftId, Buffer.from('definitely not a jpeg'));
    expect(text.statusCode).toBe(400);
    expect(json(text).error).toBe(texts.recipient.scanUnreadable);
    const sharp = (await import('sharp')).default;
    const tiny = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#777' } }).jpeg().toBuffer();
    expect(json(await directScan(h, giftId, tiny)).error).toBe(texts.recipient.scanUnreadable);
    const strip = await sharp({ create: { width: 20000, height: 64, channels: 3, background: '#777' } }).jpeg().toBuffer();
    const stripScan = await directScan(h, giftId, strip);
    expect(stripScan.statusCode).toBe(400);
    expect(json(stripScan).error).toBe(texts.recipient.scanUnreadable);

    const unknown = await directScan(h, 'f'.repeat(32), photos.genuine);
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).error).toBe('Gift not found');

    const draft = await submitGift(h, sender, GIFT_FIELDS, [photos.reference]);
    const draftId = json<{ giftId: string }>(draft).giftId;
    await uploadVideo(h, sender, draftId);
    const unpaid = await directScan(h, draftId, photos.genuine);
    expect(unpaid.statusCode).toBe(403);
    expect(json(unpaid).error).toBe(texts.recipient.giftNotReady);
    await payGift(h, sender, draftId);
    expect((await directScan(h, draftId, photos.genuine)).statusCode).toBe(200);
  });

  it('Basic plan: 3 reveals, then the scan limit; the 24 h validity is enforced', async () => {
    const h = get();
    const basic = await activeGift(h, sender, { planId: 'basic_in', photo: photos.reference, recipientEmail: uniqueEmail('b') });
    for (let i = 0; i < 3; i++) expect(json(await directScan(h, basic, photos.genuine)).success).toBe(true);
    const fourth = await directScan(h, basic, photos.genuine);
    expect(fourth.statusCode).toBe(403);
    expect(json(fourth).error).toBe(texts.recipient.scanLimitReached);
    expect(revealCookie(fourth, basic)).toBeNull();
    const row = await h.db.selectFrom('gifts').select('scans_used').where('id', '=', basic).executeTakeFirstOrThrow();
    expect(row.scans_used).toBe(3);

    const fresh = await activeGift(h, sender, { planId: 'basic_in', photo: photos.reference, recipientEmail: uniqueEmail('c') });
    const start = h.clock.now();
    h.clock.advance(24 * HOUR + 1000);
    try {
      const late = await directScan(h, fresh, photos.genuine);
      expect(late.statusCode).toBe(410);
      expect(json(late).error).toBe(texts.recipient.giftExpired);
      // Premium lasts 30 days: still fine a day later.
      expect(json(await directScan(h, giftId, photos.genuine)).success).toBe(true);
    } finally {
      h.clock.set(start);
    }
  });

  it('rate-limits failed scans per gift', async () => {
    const h = get();
    const target = await activeGift(h, sender, { photo: photos.reference, recipientEmail: uniqueEmail('rl') });
    const start = h.clock.now();
    try {
      let last;
      for (let i = 0; i < 10; i++) {
        last = await directScan(h, target, photos.impostor);
        expect(json(last).error).toBe(texts.recipient.noMatch);
      }
      const blocked = await directScan(h, target, photos.genuine);
      expect(blocked.statusCode).toBe(429);
      expect(json(blocked).error).toBe(texts.recipient.tooManyFailedScans);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      h.clock.advance(10 * 60 * 1000 + 1000);
      expect(json(await directScan(h, target, photos.genuine)).success).toBe(true);
    } finally {
      h.clock.set(start);
    }
  });

  it('demo: matches the demo gift shipped with the web app; unknown demo → 404', async () => {
    const h = get();
    const sharp = (await import('sharp')).default;
    const { WEB_PUBLIC_DIR } = await import('./helpers/harness.ts');
    const demo = await sharp(`${WEB_PUBLIC_DIR}/demo-media/birthday-gift.jpg`).resize(600, 600, { fit: 'inside' }).jpeg({ quality: 50 }).toBuffer();
    const post = (id: string, image: Buffer) => {
      const body = multipart({}, [{ name: 'scan', filename: 'scan.jpg', type: 'image/jpeg', data: image }]);
      return h.app.inject({ method: 'POST', url: `/api/demo/scan/${id}`, headers: body.headers, payload: body.payload });
    };
    const hit = await post('birthday', demo);
    expect(hit.statusCode).toBe(200);
    expect(json(hit)).toMatchObject({ success: true, matched: true });
    expect(json(await post('birthday', photos.impostor))).toMatchObject({ success: true, matched: false });
    expect((await post('nope', demo)).statusCode).toBe(404);
  });
});

describeEachDatabase(
  'recipient scans: failed scans per client',
  (get) => {
    it('a client that keeps failing is stopped (per-client limit); oversized scans are refused', async () => {
      const h = get();
      const sender = (await signIn(h, uniqueEmail('sender'))).cookie;
      const gift = await activeGift(h, sender, { photo: photos.reference, recipientEmail: uniqueEmail('ip') });
      const big = Buffer.concat([photos.genuine, Buffer.alloc(2 * 1024 * 1024)]);
      const tooLarge = await directScan(h, gift, big);
      expect(tooLarge.statusCode).toBe(413);
      expect(json(tooLarge).error).toBe(texts.recipient.scanTooLarge);

      expect(json(await directScan(h, gift, photos.impostor)).error).toBe(texts.recipient.noMatch);
      expect(json(await directScan(h, gift, photos.impostor)).error).toBe(texts.recipient.noMatch);
      const blocked = await directScan(h, gift, photos.genuine);
      expect(blocked.statusCode).toBe(429);
      expect(json(blocked).error).toBe(texts.recipient.tooManyFailedScans);
    });
  },
  { scanFailureLimit: { perTarget: 100, perClient: 2, windowMs: 10 * 60 * 1000 } },
);
