import { texts } from '@giftlens/contract/texts';
import { TestPayResponse } from '@giftlens/contract/payments';
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { createRazorpayProvider } from '../src/adapters/payments.ts';
import { createGift, createOrder, orderFor, paidGift, payGift, readyGift } from './helpers/flows.ts';
import { deriveKey } from '../src/lib/crypto.ts';
import { describeEachDatabase, it, json, SESSION_SECRET, signIn, type Harness } from './helpers/harness.ts';

const giftRow = (h: Harness, giftId: string) =>
  h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();


async function testPay(h: Harness, cookie: string, orderId: string) {
  const res = await h.app.inject({ method: 'POST', url: '/api/payment/test-checkout/pay', headers: { cookie }, payload: { orderId } });
  expect(res.statusCode, res.body).toBe(200);
  return TestPayResponse.parse(json(res));
}

// The built-in test provider's secrets, derived from the session secret as it derives them.
const TEST_KEY_SECRET = deriveKey(SESSION_SECRET, 'test-payments-key');
const TEST_WEBHOOK_SECRET = deriveKey(SESSION_SECRET, 'test-payments-webhook');

const verify = (h: Harness, payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/payment/verify-payment-callback', payload });

function webhook(h: Harness, body: unknown, opts: { eventId?: string; secret?: string; signature?: string } = {}) {
  const raw = JSON.stringify(body);
  const signature = opts.signature ?? createHmac('sha256', opts.secret ?? TEST_WEBHOOK_SECRET).update(raw).digest('hex');
  return h.app.inject({
    method: 'POST',
    url: '/api/payment/webhook',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': signature,
      ...(opts.eventId ? { 'x-razorpay-event-id': opts.eventId } : {}),
    },
    payload: raw,
  });
}

const capturedEvent = (orderId: string, paymentId = 'pay_WEBHOOK0000001') => ({
  entity: 'event',
  event: 'payment.captured',
  payload: { payment: { entity: { id: paymentId, order_id: orderId, status: 'captured' } } },
});

describeEachDatabase('payments', (get) => {
  it('prices the order from the plan, pays in test mode and verifies the signature', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h, 'premium_in');
    const created = await orderFor(h, cookie, giftId);
    expect(created).toEqual({ success: true, provider: 'test', orderId: created.orderId, amountMinor: 9900, currency: 'INR' });
    expect(created.orderId).toMatch(/^order_[0-9A-Za-z]{14}$/);

    const paid = await testPay(h, cookie, created.orderId);
    expect(paid.razorpay_order_id).toBe(created.orderId);
    expect(paid.razorpay_payment_id).toMatch(/^pay_[0-9A-Za-z]{14}$/);
    expect(paid.razorpay_signature).toBe(
      createHmac('sha256', TEST_KEY_SECRET).update(`${created.orderId}|${paid.razorpay_payment_id}`).digest('hex'),
    );

    const res = await verify(h, { orderId: paid.razorpay_order_id, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true, giftId, purpose: 'gift' });
    const gift = await giftRow(h, giftId);
    expect(gift.status).toBe('active');
    expect(gift.paid_at).toBe(h.clock.now().toISOString());
    const row = await h.db.selectFrom('orders').selectAll().where('provider_order_id', '=', created.orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'paid', payment_id: paid.razorpay_payment_id, amount_minor: 9900, currency: 'INR' });

    // Verifying twice is idempotent: still success, paid_at unchanged.
    h.clock.advance(5000);
    const again = await verify(h, { orderId: paid.razorpay_order_id, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    expect(again.statusCode).toBe(200);
    expect((await giftRow(h, giftId)).paid_at).toBe(gift.paid_at);

    const summary = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie } });
    expect(json<{ gift: { status: string } }>(summary).gift.status).toBe('active');
  });

  it('rejects an amount the client tried to set (the schema is strict)', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/payment/create-order',
      headers: { cookie },
      payload: { giftId, amount: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ success: false, code: 'validation_failed' });
    expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(0);
  });

  it('refuses a forged signature and leaves the gift unpaid', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const created = await orderFor(h, cookie, giftId);
    const paid = await testPay(h, cookie, created.orderId);
    const forgedCases = [
      { orderId: created.orderId, paymentId: paid.razorpay_payment_id, signature: 'f'.repeat(64) },
      // A signature made with another key.
      {
        orderId: created.orderId,
        paymentId: paid.razorpay_payment_id,
        signature: createHmac('sha256', 'attacker-key').update(`${created.orderId}|${paid.razorpay_payment_id}`).digest('hex'),
      },
      // A real signature for a different payment id.
      { orderId: created.orderId, paymentId: 'pay_OTHER000000000', signature: paid.razorpay_signature },
      // An order we never stored.
      { orderId: 'order_NOTOURS0000000', paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature },
    ];
    for (const payload of forgedCases) {
      const res = await verify(h, payload);
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({ success: false, error: texts.sender.paymentSignatureInvalid, code: 'payment_signature_invalid' });
    }
    expect(await giftRow(h, giftId)).toMatchObject({ status: 'message_uploaded', paid_at: null });
    const row = await h.db.selectFrom('orders').selectAll().where('gift_id', '=', giftId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'created', payment_id: null });
    const missing = await verify(h, { orderId: created.orderId });
    expect(missing.statusCode).toBe(400);
  });

  it('create-order needs a session, the own gift, an uploaded message and no earlier payment', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const anon = await h.app.inject({ method: 'POST', url: '/api/payment/create-order', payload: { giftId } });
    expect(anon.statusCode).toBe(401);
    const stranger = await signIn(h);
    const foreign = await createOrder(h, stranger.cookie, giftId);
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign).error).toBe(texts.sender.giftNotFound);

    const draftId = await createGift(h, cookie);
    const draft = await createOrder(h, cookie, draftId);
    expect(draft.statusCode).toBe(409);
    expect(json(draft).error).toBe(texts.sender.giftNotReadyForPayment);

    await payGift(h, cookie, giftId);
    const twice = await createOrder(h, cookie, giftId);
    expect(twice.statusCode).toBe(409);
    expect(json(twice).error).toBe(texts.sender.giftAlreadyPaid);
  });

  it('test checkout only pays orders we created, of the signed-in sender’s own gift', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const created = await orderFor(h, cookie, giftId);
    const pay = (headers: Record<string, string>, orderId = created.orderId) =>
      h.app.inject({ method: 'POST', url: '/api/payment/test-checkout/pay', headers, payload: { orderId } });

    expect((await pay({ cookie }, 'order_UNKNOWN000000')).statusCode).toBe(404);
    // Anyone could mark any order paid if this call needed no session.
    const anonymous = await pay({});
    expect(anonymous.statusCode).toBe(401);
    const stranger = await signIn(h);
    const foreign = await pay({ cookie: stranger.cookie });
    expect(foreign.statusCode).toBe(404);
    expect((await pay({ cookie })).statusCode).toBe(200);
  });

  it('a signed webhook marks the gift paid; a replay answers 200 and does nothing', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const created = await orderFor(h, cookie, giftId);
    const event = capturedEvent(created.orderId);
    const first = await webhook(h, event, { eventId: 'evt_TEST000000001' });
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual({ success: true, duplicate: false });
    const gift = await giftRow(h, giftId);
    expect(gift).toMatchObject({ status: 'active' });
    const paidAt = gift.paid_at;

    h.clock.advance(60_000);
    const replay = await webhook(h, event, { eventId: 'evt_TEST000000001' });
    expect(replay.statusCode).toBe(200);
    expect(json(replay)).toEqual({ success: true, duplicate: true });
    expect((await giftRow(h, giftId)).paid_at).toBe(paidAt);
    expect(await h.db.selectFrom('webhook_events').select('id').where('id', '=', 'evt_TEST000000001').execute()).toHaveLength(1);

    // The checkout callback arriving after the webhook is still fine.
    const paid = await testPay(h, cookie, created.orderId);
    const late = await verify(h, { orderId: created.orderId, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    expect(late.statusCode).toBe(200);
    expect((await giftRow(h, giftId)).paid_at).toBe(paidAt);
  });

  it('handles order.paid and recognises a replay without an event id header by its body', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const created = await orderFor(h, cookie, giftId);
    const event = {
      event: 'order.paid',
      payload: { order: { entity: { id: created.orderId } }, payment: { entity: { id: 'pay_ORDERPAID00001', order_id: created.orderId } } },
    };
    expect(json(await webhook(h, event))).toEqual({ success: true, duplicate: false });
    expect((await giftRow(h, giftId)).status).toBe('active');
    expect(json(await webhook(h, event))).toEqual({ success: true, duplicate: true });
  });

  it('refuses a webhook with a wrong or missing signature and records nothing', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const created = await orderFor(h, cookie, giftId);
    const event = capturedEvent(created.orderId);
    const wrong = await webhook(h, event, { eventId: 'evt_FORGED00000001', secret: 'not-the-secret' });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toMatchObject({ success: false, code: 'webhook_signature_invalid' });
    const none = await webhook(h, event, { eventId: 'evt_FORGED00000002', signature: '' });
    expect(none.statusCode).toBe(400);
    expect((await giftRow(h, giftId)).status).toBe('message_uploaded');
    expect(await h.db.selectFrom('webhook_events').select('id').where('id', 'like', 'evt_FORGED%').execute()).toHaveLength(0);
  });

  it('a second checkout for the same unpaid gift reuses its order, so it cannot be paid twice', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h);
    const first = await orderFor(h, cookie, giftId);
    const second = await orderFor(h, cookie, giftId);
    expect(second.orderId).toBe(first.orderId);
    expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(1);
  });

  it('without Stripe keys USD goes to the test checkout and Stripe’s calls pay nothing', async () => {
    const h = get();
    const { cookie, giftId } = await readyGift(h, 'premium_us');
    const created = await orderFor(h, cookie, giftId);
    expect(created).toMatchObject({ provider: 'test', currency: 'USD' });
    const hook = await h.app.inject({
      method: 'POST',
      url: '/api/payment/stripe-webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(hook.statusCode).toBe(404);
    const back = await h.app.inject({ method: 'POST', url: '/api/payment/verify-checkout-session', payload: { sessionId: 'cs_test_X' } });
    expect(back.statusCode).toBe(400);
    expect(json(back)).toMatchObject({ error: texts.sender.paymentVerificationFailed, code: 'payment_not_verified' });
    expect((await giftRow(h, giftId)).status).toBe('message_uploaded');
  });

  it('a paid gift is reflected in the checkout summary', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    const res = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie } });
    expect(json<{ gift: { status: string; paidAt: string | null } }>(res).gift).toMatchObject({ status: 'active' });
  });
});

describeEachDatabase(
  'payments with Razorpay keys',
  (get) => {
    it('has no test checkout route: paying without the provider is impossible', async () => {
      const h = get();
      const res = await h.app.inject({ method: 'POST', url: '/api/payment/test-checkout/pay', payload: { orderId: 'order_X' } });
      expect(res.statusCode).toBe(404);
      expect(json(res)).toMatchObject({ success: false, code: 'not_found' });
    });
  },
  (() => {
    const razorpay = createRazorpayProvider(
      { keyId: 'rzp_test_key', keySecret: 'rzp_secret', webhookSecret: 'wh_secret' },
      () => Promise.reject(new Error('no network in this test')),
    );
    return { payments: { INR: razorpay, USD: razorpay } };
  })(),
);
