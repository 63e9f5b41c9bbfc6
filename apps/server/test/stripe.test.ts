import { texts } from '@giftlens/contract/texts';
import { afterAll, expect } from 'vitest';
import { createTestPaymentProvider } from '../src/adapters/payments.ts';
import { createStripeCheckoutProvider } from '../src/adapters/stripe.ts';
import { createOrder, orderFor, readyGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, SESSION_SECRET, type Harness } from './helpers/harness.ts';
import { startStripeStandIn, type StandInSession } from './helpers/stripe-stand-in.ts';

// The real `stripe` package, pointed at a loopback server standing in for api.stripe.com.
const standIn = await startStripeStandIn();
afterAll(() => standIn.close());
const stripe = createStripeCheckoutProvider({
  secretKey: standIn.secretKey,
  webhookSecret: standIn.webhookSecret,
  apiUrl: standIn.url,
});

const giftRow = (h: Harness, giftId: string) =>
  h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
const orderRow = (h: Harness, sessionId: string) =>
  h.db.selectFrom('orders').selectAll().where('provider_order_id', '=', sessionId).executeTakeFirstOrThrow();


const session = (id: string): StandInSession => {
  const s = standIn.sessions.get(id);
  if (!s) throw new Error(`the stand-in has no session ${id}`);
  return s;
};

const verifySession = (h: Harness, sessionId: string) =>
  h.app.inject({ method: 'POST', url: '/api/payment/verify-checkout-session', payload: { sessionId } });

function webhook(h: Harness, event: { body: string; signature: string }, signature: string | null = event.signature) {
  return h.app.inject({
    method: 'POST',
    url: '/api/payment/stripe-webhook',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload: event.body,
  });
}

const eventCount = async (h: Harness, id: string) =>
  (await h.db.selectFrom('webhook_events').select('id').where('id', '=', id).execute()).length;

describeEachDatabase(
  'Stripe Checkout for USD orders',
  (get) => {
    it('creates a Checkout Session priced from the plan, returning to PUBLIC_ORIGIN, naming our order', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h, 'lifetime_us');
      const created = await orderFor(h, cookie, giftId);
      expect(created).toMatchObject({ success: true, provider: 'stripe', amountMinor: 299, currency: 'USD' });
      expect(created.orderId).toMatch(/^cs_test_/);
      expect(created.checkoutUrl).toBe(`${standIn.url}/pay/${created.orderId}`);
      expect(created).not.toHaveProperty('keyId');

      const order = await orderRow(h, created.orderId);
      expect(order).toMatchObject({ gift_id: giftId, provider: 'stripe', amount_minor: 299, currency: 'USD', status: 'created' });
      const call = standIn.requests.findLast((r) => r.method === 'POST');
      expect(call?.headers.authorization).toBe(`Bearer ${standIn.secretKey}`);
      expect(call?.headers['idempotency-key']).toBe(`giftlens-order-${order.id}`);
      const form = Object.fromEntries(call?.form ?? []);
      expect(form).toMatchObject({
        mode: 'payment',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': '299',
        client_reference_id: order.id,
        'metadata[order_id]': order.id,
        'metadata[gift_id]': giftId,
        success_url: `${PUBLIC_ORIGIN}/payment-success/${giftId}/stripe/{CHECKOUT_SESSION_ID}`,
        cancel_url: `${PUBLIC_ORIGIN}/checkout/${giftId}`,
      });
    });

    it('INR orders stay with the INR provider (here the test checkout, in Razorpay’s place)', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h, 'premium_in');
      const created = await orderFor(h, cookie, giftId);
      expect(created).toMatchObject({ provider: 'test', amountMinor: 9900, currency: 'INR' });
      expect(created).not.toHaveProperty('checkoutUrl');
    });

    it('the return is paid only once Stripe says the session is paid; then the gift proceeds as with Razorpay', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h);
      const created = await orderFor(h, cookie, giftId);

      // Back from Stripe before paying (the back button, a guessed URL): not paid, and the page may retry.
      const early = await verifySession(h, created.orderId);
      expect(early.statusCode).toBe(409);
      expect(json(early)).toEqual({ success: false, error: texts.sender.paymentNotCompleted, code: 'payment_not_completed' });
      expect((await giftRow(h, giftId)).status).toBe('message_uploaded');

      const paid = standIn.pay(created.orderId);
      const res = await verifySession(h, created.orderId);
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toEqual({ success: true, giftId, purpose: 'gift' });
      const gift = await giftRow(h, giftId);
      expect(gift).toMatchObject({ status: 'active', paid_at: h.clock.now().toISOString() });
      expect(await orderRow(h, created.orderId)).toMatchObject({ status: 'paid', payment_id: paid.payment_intent });

      // Verifying again is idempotent and asks Stripe nothing more.
      const calls = standIn.requests.length;
      h.clock.advance(5000);
      expect((await verifySession(h, created.orderId)).statusCode).toBe(200);
      expect(standIn.requests.length).toBe(calls);
      expect((await giftRow(h, giftId)).paid_at).toBe(gift.paid_at);

      // As after a Razorpay payment: the checkout says paid, and a delivery can be scheduled.
      const again = await createOrder(h, cookie, giftId);
      expect(again.statusCode).toBe(409);
      expect(json(again).error).toBe(texts.sender.giftAlreadyPaid);
      const scheduled = await h.app.inject({
        method: 'POST',
        url: '/api/scheduled-messages',
        headers: { cookie },
        payload: {
          giftId,
          recipientContact: 'maya@example.com',
          contactType: 'email',
          scheduledDatetime: '2026-11-21T12:00:00.000Z',
          timezone: 'America/New_York',
        },
      });
      expect(scheduled.statusCode, scheduled.body).toBe(200);
      const recipient = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${giftId}` });
      expect(json(recipient)).toMatchObject({ success: true, giftId });
    });

    it('a paid session for another amount, currency or order never pays the gift', async () => {
      const h = get();
      const tampered: [string, Partial<StandInSession>][] = [
        ['wrong amount', { amount_total: 1 }],
        ['wrong currency', { currency: 'inr' }],
        ['another order', { client_reference_id: 'f'.repeat(32) }],
        ['other metadata', { metadata: { order_id: 'f'.repeat(32) } }],
      ];
      for (const [label, change] of tampered) {
        const { cookie, giftId } = await readyGift(h);
        const created = await orderFor(h, cookie, giftId);
        Object.assign(standIn.pay(created.orderId), change);

        const res = await verifySession(h, created.orderId);
        expect(res.statusCode, label).toBe(400);
        expect(json(res), label).toEqual({ success: false, error: texts.sender.paymentVerificationFailed, code: 'payment_not_verified' });
        // The signed webhook carrying the same session is recorded but pays nothing either.
        const hook = await webhook(h, standIn.signedEvent('checkout.session.completed', session(created.orderId)));
        expect(hook.statusCode, label).toBe(200);
        expect(await giftRow(h, giftId), label).toMatchObject({ status: 'message_uploaded', paid_at: null });
        expect(await orderRow(h, created.orderId), label).toMatchObject({ status: 'created', payment_id: null });
      }
    });

    it('a session we never created, or not a session id at all, is refused', async () => {
      const h = get();
      const unknown = await verifySession(h, 'cs_test_NotOurs0000000000');
      expect(unknown.statusCode).toBe(400);
      expect(json(unknown)).toMatchObject({ error: texts.sender.paymentVerificationFailed, code: 'payment_not_verified' });
      const garbage = await verifySession(h, '../../v1/charges');
      expect(garbage.statusCode).toBe(400);
      expect(json(garbage)).toMatchObject({ error: texts.sender.paymentVerificationFailed });
    });

    it('a signed checkout.session.completed pays the gift; a replay answers 200 and changes nothing', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h);
      const created = await orderFor(h, cookie, giftId);
      const event = standIn.signedEvent('checkout.session.completed', standIn.pay(created.orderId));

      const first = await webhook(h, event);
      expect(first.statusCode, first.body).toBe(200);
      expect(json(first)).toEqual({ success: true, duplicate: false });
      const gift = await giftRow(h, giftId);
      expect(gift.status).toBe('active');

      h.clock.advance(60_000);
      // The same event delivered again (Stripe retries until it sees a 2xx), freshly signed.
      const replay = await webhook(h, standIn.signedEvent('checkout.session.completed', session(created.orderId), { id: event.id }));
      expect(json(replay)).toEqual({ success: true, duplicate: true });
      expect(json(await webhook(h, event))).toEqual({ success: true, duplicate: true });
      expect((await giftRow(h, giftId)).paid_at).toBe(gift.paid_at);
      expect(await eventCount(h, event.id)).toBe(1);

      // The sender's return after the webhook is still a success.
      expect((await verifySession(h, created.orderId)).statusCode).toBe(200);
      expect((await giftRow(h, giftId)).paid_at).toBe(gift.paid_at);
    });

    it('refuses a tampered, foreign, stale or missing signature with 400 and records nothing', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h);
      const created = await orderFor(h, cookie, giftId);
      const paid = standIn.pay(created.orderId);
      const good = standIn.signedEvent('checkout.session.completed', paid);
      const foreign = standIn.signedEvent('checkout.session.completed', paid, { secret: 'whsec_attacker' });
      const stale = standIn.signedEvent('checkout.session.completed', paid, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      const cases: [string, { body: string; signature: string }, string | null][] = [
        ['body changed after signing', { ...good, body: good.body.replace('"paid"', '"paid" ') }, good.signature],
        ['signature bytes flipped', good, good.signature.replace(/v1=(.)/, (_m, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`)],
        ['another secret', foreign, foreign.signature],
        ['older than five minutes', stale, stale.signature],
        ['no header', good, null],
        ['not Stripe’s format', good, 'sha256=abc'],
      ];
      for (const [label, event, signature] of cases) {
        const res = await webhook(h, event, signature);
        expect(res.statusCode, label).toBe(400);
        expect(json(res), label).toMatchObject({ success: false, code: 'webhook_signature_invalid' });
      }
      expect(await giftRow(h, giftId)).toMatchObject({ status: 'message_uploaded' });
      expect(await eventCount(h, good.id)).toBe(0);
      // The genuine one still works afterwards.
      expect((await webhook(h, good)).statusCode).toBe(200);
      expect((await giftRow(h, giftId)).status).toBe('active');
    });

    it('an async payment: completed but unpaid waits, async_payment_succeeded pays', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h);
      const created = await orderFor(h, cookie, giftId);
      const s = session(created.orderId);
      Object.assign(s, { status: 'complete', payment_status: 'unpaid', url: null });
      expect((await webhook(h, standIn.signedEvent('checkout.session.completed', s))).statusCode).toBe(200);
      expect((await giftRow(h, giftId)).status).toBe('message_uploaded');
      expect((await verifySession(h, created.orderId)).statusCode).toBe(409);

      Object.assign(s, { payment_status: 'paid', payment_intent: 'pi_async0000000001' });
      expect((await webhook(h, standIn.signedEvent('checkout.session.async_payment_succeeded', s))).statusCode).toBe(200);
      expect((await giftRow(h, giftId)).status).toBe('active');
      expect(await orderRow(h, created.orderId)).toMatchObject({ status: 'paid', payment_id: 'pi_async0000000001' });
    });

    it('a failed async payment or an expired session closes the order; the next checkout is a new session', async () => {
      const h = get();
      for (const type of ['checkout.session.async_payment_failed', 'checkout.session.expired']) {
        const { cookie, giftId } = await readyGift(h);
        const first = await orderFor(h, cookie, giftId);
        const s = type.endsWith('expired') ? standIn.expire(first.orderId) : Object.assign(session(first.orderId), { status: 'complete' });
        expect((await webhook(h, standIn.signedEvent(type, s))).statusCode, type).toBe(200);
        expect((await orderRow(h, first.orderId)).status, type).toBe('closed');
        expect((await giftRow(h, giftId)).status, type).toBe('message_uploaded');
        const second = await orderFor(h, cookie, giftId);
        expect(second.orderId, type).not.toBe(first.orderId);
        expect(session(second.orderId).status, type).toBe('open');
      }
    });

    it('coming back to checkout reuses the open session; an expired one is replaced, a paid one marks the gift paid', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h);
      const first = await orderFor(h, cookie, giftId);
      const again = await orderFor(h, cookie, giftId);
      expect(again).toEqual(first);
      expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(1);

      // Expired at Stripe without our hearing of it (no webhook configured): a new session, the old order closed.
      standIn.expire(first.orderId);
      const fresh = await orderFor(h, cookie, giftId);
      expect(fresh.orderId).not.toBe(first.orderId);
      expect((await orderRow(h, first.orderId)).status).toBe('closed');

      // Paid at Stripe, but neither the return nor the webhook reached us: the next checkout finds it paid.
      standIn.pay(fresh.orderId);
      const paid = await createOrder(h, cookie, giftId);
      expect(paid.statusCode).toBe(409);
      expect(json(paid).error).toBe(texts.sender.giftAlreadyPaid);
      expect((await giftRow(h, giftId)).status).toBe('active');
    });

    it('Stripe unreachable or refusing: a clear 502, no order stored', async () => {
      const h = get();
      const { cookie, giftId } = await readyGift(h);
      standIn.failWith = 500;
      try {
        const res = await createOrder(h, cookie, giftId);
        expect(res.statusCode).toBe(502);
        expect(json(res)).toEqual({ success: false, error: texts.sender.paymentProviderUnavailable, code: 'payment_provider_unavailable' });
      } finally {
        standIn.failWith = null;
      }
      expect(await h.db.selectFrom('orders').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(0);
      expect((await orderFor(h, cookie, giftId)).provider).toBe('stripe');
    });

    it('the CSP names no Stripe origin: the checkout is a top-level navigation, which CSP does not govern', async () => {
      const h = get();
      const res = await h.app.inject({ method: 'GET', url: '/' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toMatch(/stripe/i);
    });
  },
  { payments: { INR: createTestPaymentProvider(SESSION_SECRET), USD: stripe } },
);
