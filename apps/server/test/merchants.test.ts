import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type CreateMerchantGiftResponse,
  type MerchantGiftStatusResponse,
  giftBrandApi,
  merchantApi,
  merchantTexts,
  type RecordLinkResponse,
  recordApi,
  staffMerchantApi,
  type StaffCreateMerchantResponse,
  type WebhookBody,
} from '@giftlens/contract/merchants';
import { staffApi, type StaffGiftResponse, type StaffVerifyResponse } from '@giftlens/contract/staff';
import type { LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import { authenticator } from 'otplib';
import { afterAll, beforeAll, expect } from 'vitest';
import { createWhatsAppCloud } from '../src/adapters/whatsapp.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, putUpload, uniqueEmail, type Harness } from './helpers/harness.ts';
import { pdfText } from './helpers/pdf.ts';
import { giftPhoto, multipart, tinyMp4 } from './helpers/media.ts';
import { consentedReaction, directScan, REACTION_WEBM, revealCookie, scanPhotos } from './helpers/recipient.ts';

// The merchant API (issue 39, decision 058), on both databases: staff make merchants and keys, a shop creates gifts
// with its key, the buyer records through the record link, the shop hears of each step by signed webhooks sent to a
// loopback http receiver (allowed by WEBHOOK_ALLOW_HTTP_HOSTS).

const STAFF = 'merchants@giftlens.test';
const reason = 'New shop signed the contract (ticket 77)';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: WebhookBody;
}

/** A shop's webhook endpoint on loopback http: records every call; answers 500 to the first call of `failFirst` types. */
async function startReceiver() {
  const received: Received[] = [];
  const failFirst = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as WebhookBody;
      received.push({ headers: req.headers, raw, body });
      if (failFirst.delete(body.type)) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('shop database down');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/giftlens/webhook`,
    received,
    failFirst,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The check docs/merchant-api.md shows a shop: the HMAC of "<t>.<raw body>" under the secret, compared. */
function verifySignature(header: string | string[] | undefined, raw: string, secret: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${raw}`).digest('hex');
  return expected === m[2];
}

const cookiesOf = (res: LightMyRequestResponse) =>
  (Array.isArray(res.headers['set-cookie']) ? res.headers['set-cookie'] : [res.headers['set-cookie'] ?? ''])
    .map((c) => String(c).split(';')[0])
    .filter((c) => c && !c.endsWith('='))
    .join('; ');

async function staffSignIn(h: Harness): Promise<string> {
  const post = (url: string, payload: object, cookie?: string) => h.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
  await post(staffApi.sendCode, { email: STAFF });
  const verified = await post(staffApi.verify, { email: STAFF, code: await h.readCode(STAFF) });
  const { totpEnrolment } = json<StaffVerifyResponse>(verified);
  const totp = authenticator.clone({ epoch: h.clock.now().getTime() }).generate(totpEnrolment!.secret);
  const confirmed = await post(staffApi.totpConfirm, { totp }, cookiesOf(verified));
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return cookiesOf(confirmed);
}

async function mailsTo(h: Harness, email: string) {
  const out: { subject: string; text: string }[] = [];
  for (const f of (await readdir(h.outboxDir).catch(() => [])).filter((x) => x.endsWith('.eml')).sort()) {
    const eml = await readFile(path.join(h.outboxDir, f), 'utf8');
    if (!new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(eml)) continue;
    const parsed = await simpleParser(eml);
    out.push({ subject: parsed.subject ?? '', text: parsed.text ?? '' });
  }
  return out;
}

// Asymmetric matchers typed as what they are compared with (expect's own return `any`).
const matching = (re: RegExp): unknown => expect.stringMatching(re);
const anyString: unknown = expect.any(String);
const anyNumber: unknown = expect.any(Number);
const anyBoolean: unknown = expect.any(Boolean);
const containing = (o: object): unknown => expect.objectContaining(o);

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describeEachDatabase(
  'merchant API: keys, gifts, the record link, signed webhooks',
  (getH) => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let staff: string;
    let shop: StaffCreateMerchantResponse;
    let other: StaffCreateMerchantResponse;
    let photos: Awaited<ReturnType<typeof scanPhotos>>;

    const staffPost = (h: Harness, url: string, payload: object) => h.app.inject({ method: 'POST', url, payload, headers: { cookie: staff } });
    const runJobs = async (h: Harness) => {
      // Jobs enqueue jobs (a message ready queues its webhook and release; the release queues the delivery).
      while ((await h.jobs.runDue()) > 0);
    };
    const hooksOf = (giftId: string, type?: string) => receiver.received.filter((r) => r.body.giftId === giftId && (!type || r.body.type === type));

    async function createGift(h: Harness, key: string, fields: Record<string, string> = {}, opts: { idempotencyKey?: string; images?: Buffer[] } = {}) {
      const body = multipart(
        { orderId: `SHOP-${Math.random().toString(36).slice(2, 8)}`, buyerEmail: uniqueEmail('buyer'), buyerName: 'Priya', recipientName: 'Ravi', occasion: 'birthday', planId: 'premium_us', ...fields },
        (opts.images ?? [giftPhoto()]).map((data, i) => ({ name: 'productImage', filename: `p${i}.jpg`, type: 'image/jpeg', data })),
      );
      return h.app.inject({
        method: 'POST',
        url: merchantApi.gifts,
        headers: { ...body.headers, ...bearer(key), ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}) },
        payload: body.payload,
      });
    }
    const created = async (h: Harness, key: string, fields: Record<string, string> = {}) => {
      const res = await createGift(h, key, fields);
      expect(res.statusCode, res.body).toBe(201);
      return json<CreateMerchantGiftResponse>(res);
    };
    const tokenOf = (recordUrl: string) => recordUrl.split('/record/')[1]!;
    const status = async (h: Harness, key: string, giftId: string) => json<MerchantGiftStatusResponse>(await h.app.inject({ method: 'GET', url: merchantApi.gift(giftId), headers: bearer(key) }));

    beforeAll(async () => {
      const h = getH();
      receiver = await startReceiver();
      photos = await scanPhotos();
      staff = await staffSignIn(h);
      const made = await staffPost(h, staffMerchantApi.merchants, { name: 'Shop', webhookUrl: receiver.url, reason });
      expect(made.statusCode, made.body).toBe(200);
      shop = json<StaffCreateMerchantResponse>(made);
      other = json<StaffCreateMerchantResponse>(await staffPost(h, staffMerchantApi.merchants, { name: 'Other Shop', webhookUrl: receiver.url, reason }));
    }, 60_000);
    afterAll(async () => {
      await receiver?.close();
    });

    it('staff create a merchant: its key (gl_live_, ~190 bits) and webhook secret shown once, the key kept hashed, audited', async () => {
      const h = getH();
      expect(shop.merchant).toEqual({ id: matching(/^[0-9a-f]{32}$/), name: 'Shop' });
      expect(shop.apiKey).toMatch(/^gl_live_[0-9A-Za-z]{32}$/);
      expect(shop.webhookSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      const keys = await h.db.selectFrom('merchant_api_keys').selectAll().where('merchant_id', '=', shop.merchant.id).execute();
      expect(keys).toHaveLength(1);
      expect(keys[0]!.key_hash).not.toContain(shop.apiKey.slice(8));
      expect(keys[0]!.prefix).toBe(shop.apiKey.slice(0, 12));
      const row = await h.db.selectFrom('merchants').selectAll().where('id', '=', shop.merchant.id).executeTakeFirstOrThrow();
      expect(row.webhook_secret).not.toContain(shop.webhookSecret.slice(6));
      const audit = json<{ entries: { action: string; reason: string; details: string | null }[] }>(await h.app.inject({ method: 'GET', url: staffApi.audit, headers: { cookie: staff } }));
      const entry = audit.entries.find((e) => e.action === 'create_merchant');
      expect(entry?.reason).toBe(reason);
      expect(JSON.stringify(audit)).not.toContain(shop.apiKey);

      // The list shows the active key's prefix, never the key.
      const list = await h.app.inject({ method: 'GET', url: staffMerchantApi.merchants, headers: { cookie: staff } });
      expect(list.body).toContain(shop.apiKey.slice(0, 12));
      expect(list.body).not.toContain(shop.apiKey);

      // Webhook URLs: https, or http only to WEBHOOK_ALLOW_HTTP_HOSTS; never an internal address or credentials.
      for (const webhookUrl of ['http://shop.example/hook', 'https://10.1.2.3/hook', 'https://localhost/hook', 'https://user:pw@shop.example/hook', 'https://[::1]/hook', 'ftp://shop.example/']) {
        const res = await staffPost(h, staffMerchantApi.merchants, { name: 'Bad', webhookUrl, reason });
        expect(res.statusCode, webhookUrl).toBe(400);
        expect(json(res).error).toBe(merchantTexts.webhookUrlInvalid);
      }
      expect((await h.app.inject({ method: 'POST', url: staffMerchantApi.merchants, payload: { name: 'x', webhookUrl: receiver.url, reason } })).statusCode).toBe(401);
    });

    it('key checks: missing, wrong, malformed, revoked and rotated keys are 401; the new key works', async () => {
      const h = getH();
      const get = (headers: Record<string, string>) => h.app.inject({ method: 'GET', url: `${merchantApi.gifts}?orderId=none`, headers });
      const missing = await get({});
      expect(missing.statusCode).toBe(401);
      expect(json(missing).error).toBe(merchantTexts.keyMissing);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await get(bearer(`gl_live_${'A'.repeat(32)}`))).statusCode).toBe(401);
      expect((await get(bearer('not-a-key'))).statusCode).toBe(401);
      expect((await get({ authorization: `Basic ${shop.apiKey}` })).statusCode).toBe(401);
      expect((await get(bearer(shop.apiKey))).statusCode).toBe(200);

      // A third merchant's key: revoked, then rotated.
      const third = json<StaffCreateMerchantResponse>(await staffPost(h, staffMerchantApi.merchants, { name: 'Third', webhookUrl: receiver.url, reason }));
      expect((await get(bearer(third.apiKey))).statusCode).toBe(200);
      const revoked = await staffPost(h, staffMerchantApi.revokeKey(third.merchant.id), { reason });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const afterRevoke = await get(bearer(third.apiKey));
      expect(afterRevoke.statusCode).toBe(401);
      expect(json(afterRevoke).error).toBe(merchantTexts.keyInvalid);
      const rotated = json<{ apiKey: string }>(await staffPost(h, staffMerchantApi.rotateKey(third.merchant.id), { reason }));
      expect(rotated.apiKey).toMatch(/^gl_live_/);
      expect((await get(bearer(rotated.apiKey))).statusCode).toBe(200);
      const again = json<{ apiKey: string }>(await staffPost(h, staffMerchantApi.rotateKey(third.merchant.id), { reason }));
      expect((await get(bearer(rotated.apiKey))).statusCode).toBe(401);
      expect((await get(bearer(again.apiKey))).statusCode).toBe(200);
      expect((await staffPost(h, staffMerchantApi.rotateKey('0'.repeat(32)), { reason })).statusCode).toBe(404);
    });

    it('creates a paid gift from catalogue photos (201, rated, look-alike checked); the buyer is mailed the record link', async () => {
      const h = getH();
      const buyerEmail = uniqueEmail('priya');
      const res = await createGift(h, shop.apiKey, { buyerEmail, recipientEmail: uniqueEmail('ravi') });
      expect(res.statusCode, res.body).toBe(201);
      const gift = json<CreateMerchantGiftResponse>(res);
      expect(gift).toEqual({
        giftId: matching(/^[0-9a-f]{32}$/),
        recordUrl: matching(/^http:\/\/giftlens\.test\/record\/[0-9a-f]{64}$/),
        backupCode: matching(/^\d{8}$/),
        cardUrl: `http://giftlens.test/api/merchant/v1/gifts/${gift.giftId}/card.pdf`,
        status: 'awaiting_message',
        quality: containing({ rating: anyNumber, recognisable: anyBoolean }),
        lookalike: false,
      });
      const row = await h.db.selectFrom('gifts').selectAll().where('id', '=', gift.giftId).executeTakeFirstOrThrow();
      expect(row.status).toBe('active');
      expect(row.paid_at).not.toBeNull();
      expect(await h.db.selectFrom('gift_photos').select('id').where('gift_id', '=', gift.giftId).execute()).toHaveLength(1);
      await runJobs(h);
      const mails = await mailsTo(h, buyerEmail);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Record your message for Ravi');
      expect(mails[0]!.text).toContain(gift.recordUrl);
      expect(mails[0]!.text).toContain('Shop');

      // The same product again for the same buyer: the look-alike warning.
      const twin = await created(h, shop.apiKey, { buyerEmail });
      expect(twin.lookalike).toBe(true);

      // The card to put in the parcel: the gift's link, the recipient's name and the backup code, read back from the
      // PDF; in Hindi on ?lang=hi; another merchant's gift is a 404.
      expect(gift.cardUrl).toBe(`${PUBLIC_ORIGIN}${merchantApi.card(gift.giftId)}`);
      const card = await h.app.inject({ method: 'GET', url: merchantApi.card(gift.giftId), headers: bearer(shop.apiKey) });
      expect(card.statusCode).toBe(200);
      expect(card.headers['content-type']).toBe('application/pdf');
      expect(card.headers['cache-control']).toBe('no-store');
      const text = (await pdfText(card.rawPayload)).replace(/\s+/g, ' ');
      expect(text).toContain(`${PUBLIC_ORIGIN}/sharelink/${gift.giftId}`);
      expect(text).toContain('Ravi');
      expect(text).toContain(`${gift.backupCode.slice(0, 4)} ${gift.backupCode.slice(4)}`);
      const hindi = await h.app.inject({ method: 'GET', url: `${merchantApi.card(gift.giftId)}?lang=hi`, headers: bearer(shop.apiKey) });
      expect(hindi.statusCode).toBe(200);
      expect(await pdfText(hindi.rawPayload)).toMatch(/[\u0900-\u097F]/);
      expect((await h.app.inject({ method: 'GET', url: merchantApi.card(gift.giftId), headers: bearer(other.apiKey) })).statusCode).toBe(404);
    });

    it('Idempotency-Key: the same key answers the same gift, once stored; another key makes another gift', async () => {
      const h = getH();
      const fields = { orderId: 'SHOP-IDEM-1', buyerEmail: uniqueEmail('b') };
      const first = await createGift(h, shop.apiKey, fields, { idempotencyKey: 'order-1-gift' });
      const second = await createGift(h, shop.apiKey, fields, { idempotencyKey: 'order-1-gift' });
      expect(first.statusCode, first.body).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(json(second)).toEqual(json(first));
      // Another merchant's same key is its own.
      const others = await createGift(h, other.apiKey, fields, { idempotencyKey: 'order-1-gift' });
      expect(json<CreateMerchantGiftResponse>(others).giftId).not.toBe(json<CreateMerchantGiftResponse>(first).giftId);
      const third = await createGift(h, shop.apiKey, fields, { idempotencyKey: 'order-1-gift-b' });
      expect(json<CreateMerchantGiftResponse>(third).giftId).not.toBe(json<CreateMerchantGiftResponse>(first).giftId);
      const byOrder = json<{ gifts: MerchantGiftStatusResponse[] }>(await h.app.inject({ method: 'GET', url: `${merchantApi.gifts}?orderId=SHOP-IDEM-1`, headers: bearer(shop.apiKey) }));
      expect(byOrder.gifts.map((g) => g.giftId).sort()).toEqual([json<CreateMerchantGiftResponse>(first).giftId, json<CreateMerchantGiftResponse>(third).giftId].sort());
      expect(byOrder.gifts[0]).toMatchObject({ orderId: 'SHOP-IDEM-1', status: 'awaiting_message', messageReadyAt: null, openedAt: null, reactionReady: false });
      expect((await createGift(h, shop.apiKey, fields, { idempotencyKey: 'x'.repeat(201) })).statusCode).toBe(400);
    });

    it('bad input is a 400 naming the field; another merchant’s gift is a 404', async () => {
      const h = getH();
      const cases: [Record<string, string>, string][] = [
        [{ orderId: '' }, 'orderId'],
        [{ buyerEmail: 'not-an-address' }, 'buyerEmail'],
        [{ recipientName: '' }, 'recipientName'],
        [{ recipientEmail: 'nope' }, 'recipientEmail'],
        [{ occasion: 'party' }, 'occasion'],
        [{ planId: 'gold' }, 'planId'],
        [{ release: 'tomorrow' }, 'release'],
        // WhatsApp is not configured on this server.
        [{ recipientPhone: '+919876543210' }, 'recipientPhone'],
      ];
      for (const [fields, field] of cases) {
        const res = await createGift(h, shop.apiKey, fields);
        expect(res.statusCode, field).toBe(400);
        expect(json<{ field: string; error: string }>(res)).toMatchObject({ field });
        expect(json<{ error: string }>(res).error).toContain(field);
      }
      const none = await createGift(h, shop.apiKey, {}, { images: [] });
      expect(json(none)).toMatchObject({ field: 'productImage' });
      const five = await createGift(h, shop.apiKey, {}, { images: Array.from({ length: 5 }, () => giftPhoto()) });
      expect(five.statusCode).toBe(400);
      expect(json(five)).toMatchObject({ field: 'productImage' });
      const notImage = await createGift(h, shop.apiKey, {}, { images: [Buffer.from('plain text, not a photo')] });
      expect(notImage.statusCode).toBe(400);
      expect(json<{ error: string }>(notImage).error).toMatch(/^productImage: /);

      const gift = await created(h, shop.apiKey);
      for (const [method, url] of [
        ['GET', merchantApi.gift(gift.giftId)],
        ['POST', merchantApi.cancel(gift.giftId)],
        ['POST', merchantApi.delivered(gift.giftId)],
      ] as const) {
        const res = await h.app.inject({ method, url, headers: bearer(other.apiKey) });
        expect(res.statusCode, url).toBe(404);
        expect(json(res).error).toBe(merchantTexts.giftNotFound);
      }
      expect((await h.app.inject({ method: 'GET', url: `${merchantApi.gifts}?orderId=`, headers: bearer(shop.apiKey) })).statusCode).toBe(400);
    });

    it('the record link: a text message; the shop gets gift.message_ready signed, retried after a 500; the staff timeline shows each attempt', async () => {
      const h = getH();
      const gift = await created(h, shop.apiKey);
      const token = tokenOf(gift.recordUrl);
      const info = await h.app.inject({ method: 'GET', url: recordApi.record(token) });
      expect(info.statusCode, info.body).toBe(200);
      expect(json<RecordLinkResponse>(info)).toMatchObject({ giftId: gift.giftId, recipientName: 'Ravi', brand: { name: 'Shop' }, planId: 'premium_us', messageType: null, open: true });
      // A forged token (another gift's id with this MAC, or a changed MAC) is a 404.
      expect((await h.app.inject({ method: 'GET', url: recordApi.record(`${'0'.repeat(32)}${token.slice(32)}`) })).statusCode).toBe(404);
      expect((await h.app.inject({ method: 'GET', url: recordApi.record(`${token.slice(0, 63)}${token.endsWith('0') ? '1' : '0'}`) })).statusCode).toBe(404);

      expect((await h.app.inject({ method: 'POST', url: recordApi.text(token), payload: { text: '' } })).statusCode).toBe(400);
      receiver.failFirst.add('gift.message_ready');
      const text = await h.app.inject({ method: 'POST', url: recordApi.text(token), payload: { text: 'Happy birthday, Ravi! — Priya' } });
      expect(text.statusCode, text.body).toBe(200);
      expect(await status(h, shop.apiKey, gift.giftId)).toMatchObject({ status: 'ready', messageReadyAt: anyString });

      await runJobs(h);
      expect(hooksOf(gift.giftId, 'gift.message_ready')).toHaveLength(1);
      // The back-off's first wait is about 10 s: the retry goes once it has passed.
      h.clock.advance(15_000);
      await runJobs(h);
      const calls = hooksOf(gift.giftId, 'gift.message_ready');
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call.headers['content-type']).toBe('application/json');
        expect(verifySignature(call.headers['giftlens-signature'], call.raw, shop.webhookSecret)).toBe(true);
        expect(verifySignature(call.headers['giftlens-signature'], call.raw, other.webhookSecret)).toBe(false);
        expect(call.body).toEqual({ id: matching(/^[0-9a-f]{32}$/), type: 'gift.message_ready', giftId: gift.giftId, orderId: matching(/^SHOP-/), at: anyString });
        const t = Number(/^t=(\d+),/.exec(String(call.headers['giftlens-signature']))![1]);
        expect(Math.abs(t - Math.floor(h.clock.now().getTime() / 1000))).toBeLessThan(60);
      }
      // The same event both times (the shop dedupes by id).
      expect(calls[1]!.body.id).toBe(calls[0]!.body.id);
      h.clock.advance(60_000);
      await runJobs(h);
      expect(hooksOf(gift.giftId, 'gift.message_ready')).toHaveLength(2);

      // Staff see each delivery and its answer; the search by gift id works for a merchant's gift.
      const detail = json<StaffGiftResponse>(await h.app.inject({ method: 'GET', url: staffApi.gift(gift.giftId), headers: { cookie: staff } }));
      const lines = detail.timeline.filter((e) => e.kind === 'webhook').map((e) => e.summary);
      expect(lines).toEqual([
        matching(/^Webhook gift\.message_ready queued/),
        matching(/^Webhook gift\.message_ready attempt 1 answered 500: shop database down$/),
        matching(/^Webhook gift\.message_ready attempt 2 answered 200: ok$/),
      ]);
    });

    it('the record link: a video through upload-url, PUT and confirm (the sender’s limits and gate)', async () => {
      const h = getH();
      const gift = await created(h, shop.apiKey);
      const token = tokenOf(gift.recordUrl);
      const tooBig = await h.app.inject({ method: 'POST', url: recordApi.uploadUrl(token), payload: { fileType: 'video/mp4', fileSize: 10 * 1024 * 1024 * 1024, messageType: 'video' } });
      expect(tooBig.statusCode).toBe(413);
      const notMedia = await h.app.inject({ method: 'POST', url: recordApi.uploadUrl(token), payload: { fileType: 'application/pdf', messageType: 'video' } });
      expect(notMedia.statusCode).toBe(415);
      const data = tinyMp4();
      const target = await h.app.inject({ method: 'POST', url: recordApi.uploadUrl(token), payload: { fileType: 'video/mp4', fileSize: data.length, messageType: 'video' } });
      expect(target.statusCode, target.body).toBe(200);
      const { uploadUrl, filePath } = json<{ uploadUrl: string; filePath: string }>(target);
      expect((await putUpload(h, uploadUrl, data)).statusCode).toBe(200);
      const confirm = await h.app.inject({ method: 'POST', url: recordApi.confirm(token), payload: { filePath, messageType: 'video' } });
      expect(confirm.statusCode, confirm.body).toBe(200);
      const row = await h.db.selectFrom('gifts').select(['message_type', 'message_state']).where('id', '=', gift.giftId).executeTakeFirstOrThrow();
      expect(row).toEqual({ message_type: 'video', message_state: 'ready' });
      await runJobs(h);
      const hook = hooksOf(gift.giftId, 'gift.message_ready');
      expect(hook).toHaveLength(1);
      expect(verifySignature(hook[0]!.headers['giftlens-signature'], hook[0]!.raw, shop.webhookSecret)).toBe(true);

      // A file that is no video is refused by the gate and never becomes the message.
      const bad = Buffer.from('this is not a video at all, just text pretending');
      const t2 = json<{ uploadUrl: string; filePath: string }>(await h.app.inject({ method: 'POST', url: recordApi.uploadUrl(token), payload: { fileType: 'video/mp4', fileSize: bad.length, messageType: 'video' } }));
      await putUpload(h, t2.uploadUrl, bad);
      const refused = await h.app.inject({ method: 'POST', url: recordApi.confirm(token), payload: { filePath: t2.filePath, messageType: 'video' } });
      expect(refused.statusCode).toBe(415);
    });

    it('release now: the recipient is sent the link once the message is ready (gift.sent), then opens it by photo (gift.opened), reacts (gift.reaction_ready)', async () => {
      const h = getH();
      const recipient = uniqueEmail('ravi');
      const gift = await created(h, shop.apiKey, { recipientEmail: recipient, planId: 'lifetime_us', release: 'now' });
      await runJobs(h);
      expect(await mailsTo(h, recipient)).toHaveLength(0);
      await h.app.inject({ method: 'POST', url: recordApi.text(tokenOf(gift.recordUrl)), payload: { text: 'Enjoy it!' } });
      await runJobs(h);
      const sent = await mailsTo(h, recipient);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.text).toContain(`/sharelink/${gift.giftId}`);
      expect(hooksOf(gift.giftId, 'gift.sent')).toHaveLength(1);
      expect((await status(h, shop.apiKey, gift.giftId)).status).toBe('sent');

      const scan = await directScan(h, gift.giftId, photos.genuine);
      expect(scan.statusCode, scan.body).toBe(200);
      await runJobs(h);
      expect(hooksOf(gift.giftId, 'gift.opened')).toHaveLength(1);
      expect(await status(h, shop.apiKey, gift.giftId)).toMatchObject({ status: 'opened', openedAt: anyString, reactionReady: false });
      // Opened: the record link no longer changes the message.
      const late = await h.app.inject({ method: 'POST', url: recordApi.text(tokenOf(gift.recordUrl)), payload: { text: 'Changed' } });
      expect(late.statusCode).toBe(409);

      const grant = revealCookie(scan, gift.giftId) ?? '';
      const reactionId = await consentedReaction(h, gift.giftId, grant);
      const body = multipart({ reactionId, recordingQuality: 'high', durationSeconds: '3', mediaEndTime: '2.5', syncOffsetMs: '40' }, [{ name: 'reaction', filename: 'r.webm', type: 'video/webm', data: readFileSync(REACTION_WEBM) }]);
      const uploaded = await h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: body.headers, payload: body.payload });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      await runJobs(h);
      const hook = hooksOf(gift.giftId, 'gift.reaction_ready');
      expect(hook).toHaveLength(1);
      expect(verifySignature(hook[0]!.headers['giftlens-signature'], hook[0]!.raw, shop.webhookSecret)).toBe(true);
      expect((await status(h, shop.apiKey, gift.giftId)).reactionReady).toBe(true);
      for (const r of [...hooksOf(gift.giftId, 'gift.sent'), ...hooksOf(gift.giftId, 'gift.opened')]) expect(verifySignature(r.headers['giftlens-signature'], r.raw, shop.webhookSecret)).toBe(true);
    });

    it('release on_delivery: nothing goes until the shop says delivered; then the link goes at once', async () => {
      const h = getH();
      const recipient = uniqueEmail('ravi');
      const gift = await created(h, shop.apiKey, { recipientEmail: recipient, release: 'on_delivery' });
      await h.app.inject({ method: 'POST', url: recordApi.text(tokenOf(gift.recordUrl)), payload: { text: 'For you' } });
      await runJobs(h);
      h.clock.advance(60 * 60_000);
      await runJobs(h);
      expect(await mailsTo(h, recipient)).toHaveLength(0);
      expect((await status(h, shop.apiKey, gift.giftId)).status).toBe('ready');

      const delivered = await h.app.inject({ method: 'POST', url: merchantApi.delivered(gift.giftId), headers: bearer(shop.apiKey) });
      expect(delivered.statusCode, delivered.body).toBe(200);
      await runJobs(h);
      expect(await mailsTo(h, recipient)).toHaveLength(1);
      expect((await status(h, shop.apiKey, gift.giftId)).status).toBe('sent');
      // Said twice: the link is not sent again.
      await h.app.inject({ method: 'POST', url: merchantApi.delivered(gift.giftId), headers: bearer(shop.apiKey) });
      await runJobs(h);
      expect(await mailsTo(h, recipient)).toHaveLength(1);

      // A gift released now is not "delivered".
      const now = await created(h, shop.apiKey);
      expect((await h.app.inject({ method: 'POST', url: merchantApi.delivered(now.giftId), headers: bearer(shop.apiKey) })).statusCode).toBe(409);
    });

    it('cancel: the recipient gets 410 as for a take-down, the record link closes, the shop gets gift.cancelled', async () => {
      const h = getH();
      const recipient = uniqueEmail('ravi');
      const gift = await created(h, shop.apiKey, { recipientEmail: recipient, release: 'on_delivery' });
      const token = tokenOf(gift.recordUrl);
      await h.app.inject({ method: 'POST', url: recordApi.text(token), payload: { text: 'Hello' } });
      const res = await h.app.inject({ method: 'POST', url: merchantApi.cancel(gift.giftId), headers: bearer(shop.apiKey) });
      expect(res.statusCode, res.body).toBe(200);
      expect(json<MerchantGiftStatusResponse>(res).status).toBe('cancelled');
      await runJobs(h);
      const hook = hooksOf(gift.giftId, 'gift.cancelled');
      expect(hook).toHaveLength(1);
      expect(verifySignature(hook[0]!.headers['giftlens-signature'], hook[0]!.raw, shop.webhookSecret)).toBe(true);
      const scan = await directScan(h, gift.giftId, photos.genuine);
      expect(scan.statusCode).toBe(410);
      expect((await h.app.inject({ method: 'GET', url: recordApi.record(token) })).statusCode).toBe(410);
      expect((await h.app.inject({ method: 'POST', url: merchantApi.delivered(gift.giftId), headers: bearer(shop.apiKey) })).statusCode).toBe(409);
      await runJobs(h);
      expect(await mailsTo(h, recipient)).toHaveLength(0);
      // Again: still cancelled, no second webhook.
      expect((await h.app.inject({ method: 'POST', url: merchantApi.cancel(gift.giftId), headers: bearer(shop.apiKey) })).statusCode).toBe(200);
      await runJobs(h);
      expect(hooksOf(gift.giftId, 'gift.cancelled')).toHaveLength(1);
    });

    it('the brand: staff set its display name, colour and logo; the record link and the recipient’s pages show it', async () => {
      const h = getH();
      const patched = await h.app.inject({ method: 'PATCH', url: staffMerchantApi.merchant(shop.merchant.id), headers: { cookie: staff }, payload: { displayName: 'Shop & Co', brandColour: '#AA3300', reason } });
      expect(patched.statusCode, patched.body).toBe(200);
      expect((await h.app.inject({ method: 'PATCH', url: staffMerchantApi.merchant(shop.merchant.id), headers: { cookie: staff }, payload: { brandColour: 'red', reason } })).statusCode).toBe(400);
      const logoBody = multipart({ reason }, [{ name: 'logo', filename: 'logo.jpg', type: 'image/jpeg', data: giftPhoto() }]);
      const logo = await h.app.inject({ method: 'PUT', url: staffMerchantApi.logo(shop.merchant.id), headers: { ...logoBody.headers, cookie: staff }, payload: logoBody.payload });
      expect(logo.statusCode, logo.body).toBe(200);
      const gift = await created(h, shop.apiKey);
      const info = json<RecordLinkResponse>(await h.app.inject({ method: 'GET', url: recordApi.record(tokenOf(gift.recordUrl)) }));
      expect(info.brand).toEqual({ name: 'Shop & Co', colour: '#aa3300', logoUrl: matching(/^\/media\//) });
      const image = await h.app.inject({ method: 'GET', url: info.brand.logoUrl! });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      const greeting = await h.app.inject({ method: 'GET', url: giftBrandApi(gift.giftId) });
      expect(json(greeting)).toMatchObject({ brand: { name: 'Shop & Co' }, senderName: 'Priya' });
      // A sender's own gift has no brand.
      expect(json(await h.app.inject({ method: 'GET', url: giftBrandApi('0'.repeat(32)) }))).toEqual({ success: true, brand: null, senderName: null });
    });
    it('monthly counts of gifts created and opened, as JSON and CSV for the invoice', async () => {
      const h = getH();
      const made = json<StaffCreateMerchantResponse>(await staffPost(h, staffMerchantApi.merchants, { name: 'Counted', webhookUrl: receiver.url, reason }));
      const start = h.clock.now();
      const first = await created(h, made.apiKey);
      await created(h, made.apiKey);
      await h.app.inject({ method: 'POST', url: recordApi.text(tokenOf(first.recordUrl)), payload: { text: 'Hi' } });
      expect((await directScan(h, first.giftId, photos.genuine)).statusCode).toBe(200);
      await runJobs(h);
      h.clock.advance(40 * 24 * 60 * 60_000);
      await created(h, made.apiKey);
      const thisMonth = h.clock.now().toISOString().slice(0, 7);
      const before = start.toISOString().slice(0, 7);
      // Back to the staff session's day (it lasts 8 hours); the rows keep their months.
      h.clock.set(new Date(start.getTime() + 60_000));
      const usage = json<{ months: { month: string; created: number; opened: number }[] }>(await h.app.inject({ method: 'GET', url: staffMerchantApi.usage(made.merchant.id), headers: { cookie: staff } }));
      expect(usage.months).toEqual([
        { month: thisMonth, created: 1, opened: 0 },
        { month: before, created: 2, opened: 1 },
      ]);
      const csv = await h.app.inject({ method: 'GET', url: staffMerchantApi.usageCsv(made.merchant.id), headers: { cookie: staff } });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.body).toBe(`month,gifts_created,gifts_opened\r\n${thisMonth},1,0\r\n${before},2,1\r\n`);
      expect((await h.app.inject({ method: 'GET', url: staffMerchantApi.usage(made.merchant.id) })).statusCode).toBe(401);
    });
  },
  { staffEmails: [STAFF], webhookAllowHttpHosts: ['127.0.0.1'] },
);

describeEachDatabase(
  'merchant API: a rate limit per key',
  (getH) => {
    it('answers 429 with Retry-After past the limit, per key', async () => {
      const h = getH();
      const cookie = await staffSignIn(h);
      const make = async (name: string) =>
        json<StaffCreateMerchantResponse>(await h.app.inject({ method: 'POST', url: staffMerchantApi.merchants, headers: { cookie }, payload: { name, webhookUrl: 'https://shop.example/hook', reason } }));
      const a = await make('A');
      const b = await make('B');
      const get = (key: string) => h.app.inject({ method: 'GET', url: `${merchantApi.gifts}?orderId=1`, headers: bearer(key) });
      expect((await get(a.apiKey)).statusCode).toBe(200);
      expect((await get(a.apiKey)).statusCode).toBe(200);
      const limited = await get(a.apiKey);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await get(b.apiKey)).statusCode).toBe(200);
    });
  },
  { staffEmails: [STAFF], merchantRateLimit: { max: 2, timeWindow: 60_000 } },
);

/** A loopback stand-in for the WhatsApp Cloud API: each template message's number and parameters. */
const cloudCalls: { to: string; params: string[] }[] = [];
const cloud = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { to: string; template: { components: { parameters: { text: string }[] }[] } };
    cloudCalls.push({ to: body.to, params: body.template.components[0]?.parameters.map((p) => p.text) ?? [] });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages: [{ id: 'wamid.1' }] }));
  });
});
await new Promise<void>((resolve) => cloud.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => cloud.close(() => resolve())));

describeEachDatabase(
  'merchant API: the recipient’s link by WhatsApp where it is configured',
  (getH) => {
    it('a recipientPhone (read in the plan’s region) gets the link by WhatsApp once the message is ready', async () => {
      const h = getH();
      const cookie = await staffSignIn(h);
      const shop = json<StaffCreateMerchantResponse>(
        await h.app.inject({ method: 'POST', url: staffMerchantApi.merchants, headers: { cookie }, payload: { name: 'Shop', webhookUrl: 'https://shop.example/hook', reason } }),
      );
      const body = multipart(
        { orderId: 'WA-1', buyerEmail: uniqueEmail('buyer'), buyerName: 'Priya', recipientName: 'Ravi', recipientPhone: '98765 43210', occasion: 'birthday', planId: 'premium_in' },
        [{ name: 'productImage', filename: 'p.jpg', type: 'image/jpeg', data: giftPhoto() }],
      );
      const res = await h.app.inject({ method: 'POST', url: merchantApi.gifts, headers: { ...body.headers, ...bearer(shop.apiKey) }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(201);
      const gift = json<CreateMerchantGiftResponse>(res);
      const bad = multipart({ orderId: 'WA-2', buyerEmail: uniqueEmail('buyer'), recipientName: 'Ravi', recipientPhone: '12', occasion: 'birthday', planId: 'premium_in' }, [
        { name: 'productImage', filename: 'p.jpg', type: 'image/jpeg', data: giftPhoto() },
      ]);
      const refused = await h.app.inject({ method: 'POST', url: merchantApi.gifts, headers: { ...bad.headers, ...bearer(shop.apiKey) }, payload: bad.payload });
      expect(refused.statusCode).toBe(400);
      expect(json(refused)).toMatchObject({ field: 'recipientPhone' });

      const before = cloudCalls.length;
      await h.app.inject({ method: 'POST', url: recordApi.text(gift.recordUrl.split('/record/')[1]!), payload: { text: 'Happy birthday!' } });
      while ((await h.jobs.runDue()) > 0);
      expect(cloudCalls.slice(before)).toEqual([{ to: '919876543210', params: ['Priya', `http://giftlens.test/sharelink/${gift.giftId}`] }]);
      expect(json<MerchantGiftStatusResponse>(await h.app.inject({ method: 'GET', url: merchantApi.gift(gift.giftId), headers: bearer(shop.apiKey) })).status).toBe('sent');
    });
  },
  {
    staffEmails: [STAFF],
    whatsapp: createWhatsAppCloud({ token: 'test-token', phoneNumberId: '1234567890', template: 'gift_link', language: 'en', apiBaseUrl: `http://127.0.0.1:${(cloud.address() as AddressInfo).port}/v21.0` }),
  },
);
