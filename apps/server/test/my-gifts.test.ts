import { texts } from '@giftlens/contract/texts';
import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { createHousekeepingService, DEFAULT_RETENTION } from '../src/modules/housekeeping/housekeeping.service.ts';
import { createGift, paidGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { activeGift, directScan, scanPhotos } from './helpers/recipient.ts';

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

async function myGifts(h: Harness, cookie: string) {
  const res = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return MyGiftsResponse.parse(json(res)).gifts;
}

/** Every file under DATA_DIR/media (the upload temp folder aside). */
async function mediaFiles(h: Harness): Promise<string[]> {
  const entries = await readdir(h.mediaDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.parentPath.includes(`${path.sep}.tmp`))
    .map((e) => path.relative(h.mediaDir, path.join(e.parentPath, e.name)));
}

/** Every text cell of every table that holds `needle`, as "table.column". */
async function rowsHolding(h: Harness, needle: string): Promise<string[]> {
  const tables = (await h.db.introspection.getTables()).filter((t) => !t.name.startsWith('kysely_'));
  const found: string[] = [];
  for (const t of tables) {
    for (const c of t.columns) {
      if (!/text|char/i.test(c.dataType)) continue;
      const hit = await h.db
        .selectFrom(t.name as never)
        .select(h.db.fn.countAll().as('n'))
        .where(c.name as never, 'like', `%${needle}%` as never)
        .executeTakeFirst();
      if (Number((hit as { n?: unknown } | undefined)?.n ?? 0) > 0) found.push(`${t.name}.${c.name}`);
    }
  }
  return found;
}

describeEachDatabase('the sender’s own place', (get) => {
  it('lists the session’s gifts with their state: draft, paid and opened, with deliveries and scans', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const draft = await createGift(h, cookie);
    h.clock.advance(1000);
    const paid = await activeGift(h, cookie, { photo: photos.reference, recipientName: 'Maya' });
    const other = await signIn(h);
    await paidGift(h, other.cookie);

    let gifts = await myGifts(h, cookie);
    expect(gifts.map((g) => g.id)).toEqual([paid, draft]);
    expect(gifts[1]).toMatchObject({ status: 'draft', messageState: 'none', paidAt: null, canReplaceMessage: true, deliveries: [] });
    expect(gifts[0]).toMatchObject({
      status: 'active',
      recipientName: 'Maya',
      planId: 'premium_us',
      planName: 'Premium',
      messageType: 'video',
      messageState: 'ready',
      scansUsed: 0,
      scansAllowed: 10,
      ended: false,
      firstOpenedAt: null,
      canReplaceMessage: true,
      reaction: null,
    });
    expect(gifts[0]?.validUntil).toBe(new Date(Date.parse(gifts[0]!.paidAt!) + 30 * 86_400_000).toISOString());
    expect(gifts[0]?.photoUrl).toMatch(/^\/media\/.+\?exp=\d+&sig=[0-9a-f]+$/);
    expect(gifts[0]?.downloads.message).toMatch(/&download=1&name=Message%20for%20Maya$/); // Premium includes downloads

    const photo = await h.app.inject({ method: 'GET', url: gifts[0]!.photoUrl! });
    expect(photo.statusCode).toBe(200);
    const download = await h.app.inject({ method: 'GET', url: gifts[0]!.downloads.message! });
    expect(download.statusCode).toBe(200);
    // Named for the person it is for, not by our internal key.
    expect(download.headers['content-disposition']).toBe('attachment; filename="Message for Maya.mp4"');

    expect((await directScan(h, paid, photos.genuine)).statusCode).toBe(200);
    gifts = await myGifts(h, cookie);
    expect(gifts[0]).toMatchObject({ scansUsed: 1, canReplaceMessage: false });
    expect(gifts[0]?.firstOpenedAt).toBe(h.clock.now().toISOString());
  });

  it('Basic has no downloads', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    await activeGift(h, cookie, { photo: photos.reference, planId: 'basic_in' });
    const [gift] = await myGifts(h, cookie);
    expect(gift?.downloads).toEqual({ message: null, reaction: null });
    expect(gift?.messageUrl).not.toBeNull();
  });

  it('sign out revokes this session on the server; sign out everywhere ends every session', async () => {
    const h = get();
    const email = uniqueEmail();
    const laptop = (await signIn(h, email)).cookie;
    h.clock.advance(61_000); // the code resend cooldown
    const phone = (await signIn(h, email)).cookie;
    const out = await h.app.inject({ method: 'POST', url: '/api/gift-sender/logout', headers: { cookie: laptop } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^gl_sender=;/);
    expect((await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie: laptop } })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie: phone } })).statusCode).toBe(200);

    h.clock.advance(61_000);
    const tablet = (await signIn(h, email)).cookie;
    const all = await h.app.inject({ method: 'POST', url: '/api/gift-sender/logout-everywhere', headers: { cookie: phone } });
    expect(all.statusCode).toBe(200);
    for (const cookie of [phone, tablet]) {
      expect((await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie } })).statusCode).toBe(401);
    }
    expect((await h.app.inject({ method: 'POST', url: '/api/gift-sender/logout-everywhere' })).statusCode).toBe(401);
  });

  it('deletes a gift: rows in one go, then its files; the paid order’s amount stays; another sender gets 404', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const keep = await paidGift(h, cookie);
    const giftId = await activeGift(h, cookie, { photo: photos.reference });
    await h.app.inject({
      method: 'POST',
      url: '/api/scheduled-messages',
      headers: { cookie },
      payload: { giftId, recipientContact: 'maya@example.com', contactType: 'email', scheduledDatetime: new Date(h.clock.now().getTime() + 3_600_000).toISOString(), timezone: 'UTC' },
    });
    expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
    const before = await mediaFiles(h);
    const ofGift = before.filter((f) => f.includes(giftId));
    expect(ofGift.length).toBeGreaterThanOrEqual(2); // photo and message

    // Its jobs carry its id (decision 044): the payment confirmation, its two reminders, the delivery, the first-open notice.
    const giftJobs = await h.db.selectFrom('jobs').select(['kind', 'gift_id']).where('gift_id', '=', giftId).execute();
    expect(new Set(giftJobs.map((j) => j.kind))).toEqual(new Set(['payment.confirmation', 'reminder.sender', 'reminder.recipient', 'delivery.send', 'notice.fanout', ...(giftJobs.some((j) => j.kind === 'message.render') ? ['message.render'] : [])]));

    const foreign = await signIn(h);
    const refused = await h.app.inject({ method: 'DELETE', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie: foreign.cookie } });
    expect(refused.statusCode).toBe(404);
    expect(json(refused).error).toBe(texts.sender.giftNotFound);

    const res = await h.app.inject({ method: 'DELETE', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    for (const table of ['gifts', 'gift_photos', 'scheduled_messages', 'reactions', 'reveal_grants', 'upload_intents'] as const) {
      const column = table === 'gifts' ? 'id' : 'gift_id';
      expect(await h.db.selectFrom(table).select(column).where(column, '=', giftId).execute(), table).toHaveLength(0);
    }
    const jobs = await h.db.selectFrom('jobs').select(['kind', 'key', 'payload']).where('kind', '!=', 'media.delete').execute();
    expect(jobs.filter((j) => j.key?.includes(giftId) || j.payload.includes(giftId))).toEqual([]);
    expect(await h.db.selectFrom('jobs').select('id').where('gift_id', '=', giftId).execute()).toEqual([]);
    expect(await h.db.selectFrom('orders').select(['amount_minor', 'status']).where('gift_id', '=', giftId).execute()).toEqual([{ amount_minor: 2900, status: 'paid' }].map((o) => ({ ...o, amount_minor: expect.any(Number) as number })));

    await h.jobs.runDue();
    const after = await mediaFiles(h);
    expect(after.filter((f) => f.includes(giftId))).toEqual([]);
    expect(after.length).toBe(before.length - ofGift.length);
    expect((await myGifts(h, cookie)).map((g) => g.id)).toEqual([keep]);
    const link = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${giftId}` });
    expect(link.statusCode).toBe(404);

    // The accounting record goes once the law no longer asks for it (8 years), and not before.
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const housekeeping = createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log: quiet });
    h.clock.advance(DEFAULT_RETENTION.accountingOrderMs - 86_400_000);
    await housekeeping.run();
    expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(1);
    h.clock.advance(2 * 86_400_000);
    expect((await housekeeping.run()).orders).toBeGreaterThanOrEqual(1);
    expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(0);
    expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', keep).execute()).toHaveLength(1);
  });

  it('deleting the account leaves no row holding the e-mail address in any table, and no file', async () => {
    const h = get();
    const email = uniqueEmail('leaving');
    const { cookie } = await signIn(h, email);
    await createGift(h, cookie);
    const giftId = await activeGift(h, cookie, { photo: photos.reference, recipientEmail: email });
    expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
    // The same address also signed in as a recipient.
    await h.app.inject({ method: 'POST', url: '/api/verification-recipient/send-code', payload: { email } });
    await h.app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      headers: { cookie },
      payload: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } },
    });
    await h.jobs.runDue();
    const sender = await h.db.selectFrom('senders').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect((await rowsHolding(h, email)).length).toBeGreaterThan(0);

    const res = await h.app.inject({ method: 'DELETE', url: '/api/gift-sender/account', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    await h.jobs.runDue();
    expect(await rowsHolding(h, email)).toEqual([]);
    expect(await rowsHolding(h, sender.id)).toEqual([]);
    expect((await mediaFiles(h)).filter((f) => f.includes(giftId))).toEqual([]);
    expect((await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie } })).statusCode).toBe(401);
  });
});
