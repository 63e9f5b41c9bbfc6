import { texts } from '@giftlens/contract/texts';
import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { createSmtpMailer } from '../src/adapters/mail.ts';
import { createHousekeepingService } from '../src/modules/housekeeping/housekeeping.service.ts';
import { paidGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, signIn, type Harness } from './helpers/harness.ts';
import { giftPhoto, multipart } from './helpers/media.ts';
import { activeGift, directScan, scanPhotos } from './helpers/recipient.ts';

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});


describeEachDatabase('closed gaps', (get) => {
  it('personal data is never stored by a browser or a proxy: every API answer is no-store unless it says otherwise', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    // `/%61pi/…` is `/api/…` to the router: the same call, the same header.
    for (const url of ['/api/gift-sender/me', `/api/gift-sender/gifts/${giftId}`, '/api/gift-sender/gifts', `/api/scheduled-messages?giftId=${giftId}`, '/%61pi/gift-sender/me', `/%61pi/gift-sender/gifts/${giftId}`]) {
      const res = await h.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await h.app.inject({ method: 'GET', url: '/api/gift-sender/me' });
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('a reveal is counted and its grant written in one transaction: a failure leaves neither', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await activeGift(h, cookie, { photo: photos.reference, planId: 'basic_in' });
    // The grant cannot be written (as if the database failed at that step).
    await h.db.schema.createIndex('reveal_grants_block').on('reveal_grants').column('gift_id').unique().execute();
    await h.db.insertInto('reveal_grants').values({ token_hash: 'x', gift_id: giftId, created_at: '2099-01-01T00:00:00.000Z', expires_at: '2099-01-01T00:00:00.000Z' }).execute();
    try {
      const failed = await directScan(h, giftId, photos.genuine);
      expect(failed.statusCode).toBe(500);
      const gift = await h.db.selectFrom('gifts').select(['scans_used', 'first_opened_at']).where('id', '=', giftId).executeTakeFirstOrThrow();
      expect(gift).toEqual({ scans_used: 0, first_opened_at: null });
      expect(await h.db.selectFrom('jobs').select('id').where('key', '=', `notice:opened:${giftId}`).execute()).toEqual([]);
    } finally {
      await h.db.deleteFrom('reveal_grants').where('token_hash', '=', 'x').execute();
      await h.db.schema.dropIndex('reveal_grants_block').execute();
    }
    const ok = await directScan(h, giftId, photos.genuine);
    expect(ok.statusCode).toBe(200);
    expect((await h.db.selectFrom('gifts').select('scans_used').where('id', '=', giftId).executeTakeFirstOrThrow()).scans_used).toBe(1);
  });
});

describeEachDatabase('cross-site requests', (get) => {
  it('a state-changing call with our cookie from another origin is refused with 403; our own origin works', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const update = (headers: Record<string, string>) =>
      h.app.inject({ method: 'POST', url: '/api/gift-sender/update-user', headers: { cookie, ...headers }, payload: { firstName: 'Mallory' } });

    const evil = await update({ origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(json(evil)).toMatchObject({ code: 'cross_site_refused', error: texts.sender.crossSiteRefused });
    const navigation = await update({ 'sec-fetch-site': 'cross-site' });
    expect(navigation.statusCode).toBe(403);
    // A sibling subdomain shares the site, not the origin.
    expect((await update({ 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
    expect((await update({ origin: 'null' })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie } })).json()).toMatchObject({ firstName: 'Asha' });

    // A multipart form posted from another site, the classic CSRF.
    const form = multipart({ recipientName: 'X', recipientEmail: 'x@example.com', occasion: 'birthday', planId: 'premium_us' }, [
      { name: 'giftImage', filename: 'a.jpg', type: 'image/jpeg', data: giftPhoto() },
    ]);
    const forged = await h.app.inject({ method: 'POST', url: '/api/gift-sender/submit-gift', headers: { ...form.headers, cookie, origin: 'https://evil.example' }, payload: form.payload });
    expect(forged.statusCode).toBe(403);

    expect((await update({ origin: PUBLIC_ORIGIN })).statusCode).toBe(200);
    expect((await update({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await update({ origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    // Reading is not changing: a cross-site GET is answered (the browser keeps the answer from the other site).
    expect((await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie, origin: 'https://evil.example' } })).statusCode).toBe(200);
    // Calls without our cookies (the provider's webhook) are not affected.
    const webhook = await h.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: { origin: 'https://api.razorpay.com', 'content-type': 'application/json' }, payload: '{}' });
    expect(webhook.statusCode).toBe(400);
    expect(json(webhook).code).toBe('webhook_signature_invalid');
  });
});

describeEachDatabase('partial uploads of a killed process', (get) => {
  it('housekeeping removes a stale .part, and leaves one still being written', async () => {
    const h = get();
    h.clock.set(new Date());
    const tmp = path.join(h.mediaDir, '.tmp');
    await mkdir(tmp, { recursive: true });
    const stale = path.join(tmp, 'killed-upload.part');
    const fresh = path.join(tmp, 'uploading-now.part');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'y');
    const sevenHoursAgo = new Date(Date.now() - 7 * 3600 * 1000);
    await utimes(stale, sevenHoursAgo, sevenHoursAgo);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const report = await createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log: quiet }).run();
    expect(report.staleParts).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });
});

/** A payment callback with a forged signature (400), from `from` (the socket's peer, loopback by default). */
const badCallback = (h: Harness, forwardedFor?: string, from?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/payment/verify-payment-callback',
    ...(from ? { remoteAddress: from } : {}),
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { orderId: 'order_X', paymentId: 'pay_Y', signature: 'f'.repeat(64) },
  });

describeEachDatabase(
  'behind one proxy (TRUST_PROXY=1), a client cannot choose its address',
  (get) => {
    it('the address the proxy saw is rate limited, whatever the client wrote to the left of it', async () => {
      const h = get();
      // What nginx forwards when the client sent its own X-Forwarded-For: the client's entry, then the address the
      // proxy saw.
      const attempt = (i: number) => badCallback(h, `10.0.${i}.1, 198.51.100.7`);
      for (let i = 0; i < 3; i++) expect((await attempt(i)).statusCode).toBe(400);
      expect((await attempt(3)).statusCode).toBe(429);
      // Another client behind the same proxy is not affected.
      expect((await badCallback(h, '198.51.100.8')).statusCode).toBe(400);
    });

    it('a client that reaches the node directly (not from a private network) is its socket address, whatever it forwards', async () => {
      const h = get();
      const direct = (i: number) => badCallback(h, `10.9.${i}.1`, '203.0.113.50');
      for (let i = 0; i < 3; i++) expect((await direct(i)).statusCode).toBe(400);
      expect((await direct(3)).statusCode).toBe(429);
    });
  },
  { paymentRateLimit: { max: 3, timeWindow: 60_000 }, trustProxy: 1 },
);

describeEachDatabase(
  'verify-payment-callback is rate limited',
  (get) => {
    it('refuses a client past its limit with 429 and Retry-After', async () => {
      const h = get();
      const attempt = () => badCallback(h);
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(400);
      const limited = await attempt();
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(json(limited).error).toBe(texts.sender.tooManyRequests);
    });
  },
  { paymentRateLimit: { max: 3, timeWindow: 60_000 } },
);

describeEachDatabase(
  'health',
  (get) => {
    it('answers 503 naming the part that is down (here the mail server)', async () => {
      const h = get();
      const res = await h.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(json(res)).toEqual({ success: false, database: 'ok', storage: 'ok', mail: 'unreachable' });
    });

    it('the node stays ready and live while mail is down: a relay outage takes no node out of rotation', async () => {
      const h = get();
      const ready = await h.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(json(ready)).toEqual({ success: true, database: 'ok', storage: 'ok' });
      const live = await h.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      expect(json(live)).toEqual({ success: true });
    });
  },
  // An SMTP server that is not there: a loopback port nothing listens on.
  { mailer: () => createSmtpMailer('smtp://127.0.0.1:9', 'GiftLens <no-reply@giftlens.test>') },
);
