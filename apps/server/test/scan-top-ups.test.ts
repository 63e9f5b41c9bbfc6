import { topUpTexts } from '@giftlens/contract/extras-texts';
import { PlansResponse } from '@giftlens/contract/plans-api';
import { CreateOrderResponse, TestPayResponse, VerifyPaymentResponse } from '@giftlens/contract/payments';
import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { PushNotice } from '@giftlens/contract/push';
import { texts } from '@giftlens/contract/texts';
import { createHmac } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { deriveKey } from '../src/lib/crypto.ts';
import { createGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, SESSION_SECRET, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { browserKeys } from './helpers/push-receiver.ts';
import { activeGift, directScan, scanPhotos } from './helpers/recipient.ts';
import { noticeListeners } from './helpers/notice-listeners.ts';

const { smtp, receiver, harness } = await noticeListeners();

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

const RAN_OUT = 'Maya ran out of scans for your gift';
const mailsTo = (address: string, subject: string) =>
  smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address && m.subject === subject);

const topUp = (h: Harness, cookie: string | null, body: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/payment/create-order', headers: cookie ? { cookie } : {}, payload: body });

async function pay(h: Harness, cookie: string, orderId: string) {
  const res = await h.app.inject({ method: 'POST', url: '/api/payment/test-checkout/pay', headers: { cookie }, payload: { orderId } });
  expect(res.statusCode, res.body).toBe(200);
  const p = TestPayResponse.parse(json(res));
  return { orderId: p.razorpay_order_id, paymentId: p.razorpay_payment_id, signature: p.razorpay_signature };
}

const verify = (h: Harness, payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/payment/verify-payment-callback', payload });

/** The test provider's webhook, signed as it signs (a key derived from the session secret). */
function capturedWebhook(h: Harness, orderId: string, eventId: string) {
  const raw = JSON.stringify({ entity: 'event', event: 'payment.captured', payload: { payment: { entity: { id: 'pay_TOPUP', order_id: orderId } } } });
  const signature = createHmac('sha256', deriveKey(SESSION_SECRET, 'test-payments-webhook')).update(raw).digest('hex');
  return h.app.inject({
    method: 'POST',
    url: '/api/payment/webhook',
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': eventId },
    payload: raw,
  });
}

async function myGift(h: Harness, cookie: string, giftId: string) {
  const res = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } });
  return MyGiftsResponse.parse(json(res)).gifts.find((g) => g.id === giftId)!;
}

const extraScans = async (h: Harness, giftId: string) =>
  (await h.db.selectFrom('gifts').select('extra_scans').where('id', '=', giftId).executeTakeFirstOrThrow()).extra_scans;

/** A sender with a push device, and their Basic (3 scans, ₹) gift for Maya, its 3 scans used. */
async function giftOutOfScans(h: Harness) {
  const { cookie, email } = await signIn(h, uniqueEmail('sender'), 'Asha');
  const device = browserKeys();
  const pushPath = `/push/${email}`;
  const sub = await h.app.inject({
    method: 'POST',
    url: '/api/push/subscribe',
    headers: { cookie },
    payload: { endpoint: `${receiver.origin}${pushPath}`, expirationTime: null, keys: { p256dh: device.p256dh, auth: device.auth } },
  });
  expect(sub.statusCode, sub.body).toBe(200);
  const giftId = await activeGift(h, cookie, { planId: 'basic_in', photo: photos.reference, recipientName: 'Maya', recipientEmail: uniqueEmail('maya') });
  for (let i = 0; i < 3; i++) expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
  await h.jobs.runDue();
  return { cookie, email, device, pushPath, giftId };
}

describeEachDatabase(
  'more scans (top-up)',
  (get) => {
    it('out of scans: the recipient reads that the sender was told; the sender gets one e-mail and one push', async () => {
      const h = get();
      const { cookie, email, device, pushPath, giftId } = await giftOutOfScans(h);
      expect(mailsTo(email, RAN_OUT)).toHaveLength(0); // using the last scan is not running out

      const refused = await directScan(h, giftId, photos.genuine);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toMatchObject({ code: 'scan_limit_reached', error: texts.recipient.scanLimitReached });
      expect(texts.recipient.scanLimitReached).toContain('We have told the sender');
      await h.jobs.runDue();
      const [mail] = mailsTo(email, RAN_OUT);
      expect(mail?.text).toContain(`${PUBLIC_ORIGIN}/add-scans/${giftId}`);
      const ranOut = () =>
        receiver.received
          .filter((r) => r.path === pushPath)
          .map((r) => PushNotice.parse(device.decrypt(r.body)))
          .filter((n) => n.tag === `gift-${giftId}-scans-out`);
      expect(ranOut()).toEqual([expect.objectContaining({ title: 'Your gift ran out of scans', url: `/add-scans/${giftId}` })]);

      // Trying again tells nobody again.
      expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(403);
      await h.jobs.runDue();
      expect(mailsTo(email, RAN_OUT)).toHaveLength(1);
      expect(ranOut()).toHaveLength(1);

      // My Gifts: ended, with the top-up offered at the region's price.
      expect(await myGift(h, cookie, giftId)).toMatchObject({ ended: true, scansUsed: 3, scansAllowed: 3, scanTopUp: { scans: 5, price: '₹29' } });
    });

    it('5 scans through the usual checkout: paid once, raised once, a replayed callback or webhook changes nothing', async () => {
      const h = get();
      const { cookie, giftId } = await giftOutOfScans(h);
      const res = await topUp(h, cookie, { giftId, purpose: 'scans', scans: 5 });
      expect(res.statusCode, res.body).toBe(200);
      const order = CreateOrderResponse.parse(json(res));
      expect(order).toMatchObject({ provider: 'test', amountMinor: 2900, currency: 'INR' });
      // Asked again before paying: the same order (never charged twice).
      expect(CreateOrderResponse.parse(json(await topUp(h, cookie, { giftId, purpose: 'scans', scans: 5 }))).orderId).toBe(order.orderId);

      const paid = await pay(h, cookie, order.orderId);
      const first = await verify(h, paid);
      expect(first.statusCode, first.body).toBe(200);
      expect(VerifyPaymentResponse.parse(json(first))).toEqual({ success: true, giftId, purpose: 'scans' });
      expect(await extraScans(h, giftId)).toBe(5);
      expect(await myGift(h, cookie, giftId)).toMatchObject({ ended: false, scansUsed: 3, scansAllowed: 8 });

      // Replays: the callback again, and the provider's webhook for the same payment.
      expect((await verify(h, paid)).statusCode).toBe(200);
      expect((await capturedWebhook(h, order.orderId, 'evt_TOPUP_1')).statusCode).toBe(200);
      expect((await capturedWebhook(h, order.orderId, 'evt_TOPUP_1')).statusCode).toBe(200);
      expect(await extraScans(h, giftId)).toBe(5);
      const orders = await h.db.selectFrom('orders').select(['purpose', 'scans', 'status']).where('gift_id', '=', giftId).orderBy('created_at').execute();
      expect(orders).toEqual([
        { purpose: 'gift', scans: null, status: 'paid' },
        { purpose: 'scans', scans: 5, status: 'paid' },
      ]);

      // The recipient opens it again; a second top-up is a new order.
      expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
      const again = CreateOrderResponse.parse(json(await topUp(h, cookie, { giftId, purpose: 'scans', scans: 5 })));
      expect(again.orderId).not.toBe(order.orderId);
    });

    it('refused: another count, no session, another sender, an unpaid, unlimited or ended gift', async () => {
      const h = get();
      const { cookie, giftId } = await giftOutOfScans(h);
      const cases: [string | null, Record<string, unknown>, number, string][] = [
        [cookie, { giftId, purpose: 'scans', scans: 3 }, 400, topUpTexts.count],
        [cookie, { giftId, purpose: 'scans' }, 400, topUpTexts.count],
        [cookie, { giftId, purpose: 'scans', scans: 5, amountMinor: 1 }, 400, ''],
        [null, { giftId, purpose: 'scans', scans: 5 }, 401, ''],
        [(await signIn(h)).cookie, { giftId, purpose: 'scans', scans: 5 }, 404, texts.sender.giftNotFound],
        [cookie, { giftId: await createGift(h, cookie), purpose: 'scans', scans: 5 }, 409, topUpTexts.notPaid],
        [cookie, { giftId: await activeGift(h, cookie, { planId: 'lifetime_in', photo: photos.reference }), purpose: 'scans', scans: 5 }, 409, topUpTexts.unlimited],
        // The gift's own order for a paid gift is still refused as before.
        [cookie, { giftId }, 409, texts.sender.giftAlreadyPaid],
      ];
      for (const [who, body, status, error] of cases) {
        const res = await topUp(h, who, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        if (error) expect(json(res).error).toBe(error);
      }
      // The Basic plan lasts 24 hours: after that, no scans can be added.
      h.clock.advance(25 * 3_600_000);
      const ended = await topUp(h, cookie, { giftId, purpose: 'scans', scans: 5 });
      expect(ended.statusCode).toBe(409);
      expect(json(ended)).toMatchObject({ code: 'gift_expired', error: topUpTexts.ended });
      expect((await myGift(h, cookie, giftId)).scanTopUp).toBeNull();
      expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).where('purpose', '=', 'scans').execute()).toHaveLength(0);
    });

    it('the price per region is in GET /api/plans', async () => {
      const h = get();
      const india = PlansResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/plans?country=IN' })));
      const us = PlansResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/plans?country=US' })));
      expect(india.scanTopUp).toEqual({ scans: 5, price: '₹29' });
      expect(us.scanTopUp).toEqual({ scans: 5, price: '$0.99' });
    });
  },
  harness,
);
