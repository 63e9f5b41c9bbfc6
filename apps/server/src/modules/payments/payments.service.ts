import { topUpTexts } from '@giftlens/contract/extras-texts';
import { texts } from '@giftlens/contract/texts';
import { addScansPath } from '@giftlens/contract/checkout-return';
import {
  CHECKOUT_SESSION_ID,
  checkoutReturnPaths,
  type CreateOrderResponse,
  type TestPayResponse,
  type VerifyPaymentRequest,
} from '@giftlens/contract/payments';
import type { Currency, Plan } from '@giftlens/contract/plans';
import { SCAN_TOP_UPS } from '@giftlens/contract/scan-top-up';
import { z } from 'zod';
import type { Clock } from '../../adapters/clock.ts';
import type {
  PaymentProvider,
  PaymentProviders,
  SignedCheckoutProvider,
  TestPaymentProvider,
} from '../../adapters/payments.ts';
// Types only: the stripe package (about 1 s to load) is imported only when STRIPE_* keys are set (infrastructure.ts).
import type { CheckoutSessionFacts, StripeCheckoutProvider } from '../../adapters/stripe.ts';
import type { Db, Executor } from '../../db/database.ts';
import { paymentConfirmationJob } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { randomHex, sha256Hex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { planOf, refuseIfTakenDown, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import { queueReminders } from '../reminders/reminders.queue.ts';
import * as repo from './payments.repository.ts';
import type { Order, OrderPurpose } from './payments.table.ts';

/** What an order charges for: the gift's plan, or a number of scans (issue 40); always the server's price. */
interface Charge {
  purpose: OrderPurpose;
  amountMinor: number;
  currency: Currency;
  /** A 'scans' charge: how many it adds. */
  scans: number | null;
  description: string;
}

const planCharge = (plan: Plan): Charge => ({
  purpose: 'gift',
  amountMinor: plan.amountMinor,
  currency: plan.currency,
  scans: null,
  description: `GiftLens ${plan.name} plan — a personal message for your gift`,
});

export interface PaymentsDeps {
  db: Db;
  /** The provider each currency's orders go to. */
  providers: PaymentProviders;
  clock: Clock;
  /** PUBLIC_ORIGIN: a redirect checkout (Stripe) sends the sender back here. */
  publicOrigin: string;
  /** Seals the backup code every gift gets when it is paid (decision 039). */
  backupCodes: BackupCodes;
}

const signatureInvalid = () => new AppError(400, 'payment_signature_invalid', texts.sender.paymentSignatureInvalid);
const notVerified = () => new AppError(400, 'payment_not_verified', texts.sender.paymentVerificationFailed);

/** A provider call that failed (network, provider down, refused): a 502 the page can retry, the cause logged. */
async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw Object.assign(new AppError(502, 'payment_provider_unavailable', texts.sender.paymentProviderUnavailable), {
      cause: err,
    });
  }
}

/**
 * A Checkout Session pays this order only when Stripe says it is paid, for exactly the order's amount and currency,
 * and it names this order (client_reference_id and metadata): a session made for something else proves nothing.
 */
export function sessionPaysOrder(order: Order, s: CheckoutSessionFacts): boolean {
  return (
    s.paid &&
    s.sessionId === order.provider_order_id &&
    s.amountMinor === order.amount_minor &&
    s.currency === order.currency &&
    s.reference === order.id &&
    s.metadataOrderId === order.id
  );
}

const WebhookBody = z.object({
  event: z.string(),
  payload: z
    .object({
      payment: z.object({ entity: z.object({ id: z.string(), order_id: z.string().nullish() }) }).optional(),
      order: z.object({ entity: z.object({ id: z.string() }) }).optional(),
    })
    .optional(),
});

export function createPaymentsService({ db, providers, clock, publicOrigin, backupCodes }: PaymentsDeps) {
  const all = [...new Set<PaymentProvider>(Object.values(providers))];
  const signedProviders = all.filter((p): p is SignedCheckoutProvider => p.kind === 'signed');
  const stripe = all.find((p): p is StripeCheckoutProvider => p.kind === 'redirect');
  const testProvider = signedProviders.find((p): p is TestPaymentProvider => 'pay' in p);
  // Razorpay's webhook when it is configured; otherwise the test provider signs like it.
  const webhookProvider = signedProviders.find((p) => p.name === 'razorpay') ?? signedProviders[0];

  async function markPaid(trx: Executor, order: Order, paymentId: string | null) {
    const now = clock.now().toISOString();
    const first = await repo.markOrderPaid(trx, order.id, paymentId, now);
    if (order.purpose === 'scans') {
      // Only the call that turned the order paid adds its scans: a replayed callback or webhook adds nothing.
      if (first && order.scans) await gifts.extendGift(trx, order.gift_id, { extraScans: order.scans }, now);
      return;
    }
    // The first payment of the gift makes its backup code and queues the confirmation e-mail that carries it.
    if (await gifts.markGiftActive(trx, order.gift_id, now, backupCodes.fresh(order.gift_id).sealed)) {
      await enqueue(trx, clock.now(), 'payment.confirmation', { giftId: order.gift_id }, paymentConfirmationJob(order.gift_id));
      // Issue 40: the sender's "not opened yet" and the recipient's "ends tomorrow" reminders, once each.
      const gift = await gifts.findGift(trx, order.gift_id);
      if (gift) await queueReminders(trx, clock.now(), gift.id, planOf(gift));
    }
  }

  /** A new unpaid order at the server's price (never a client's). */
  async function storeOrder(o: { id: string; giftId: string; provider: PaymentProvider['name']; providerOrderId: string; charge: Charge }) {
    const now = clock.now().toISOString();
    await repo.insertOrder(db, {
      id: o.id,
      gift_id: o.giftId,
      provider: o.provider,
      provider_order_id: o.providerOrderId,
      amount_minor: o.charge.amountMinor,
      currency: o.charge.currency,
      purpose: o.charge.purpose,
      scans: o.charge.scans,
      status: 'created',
      payment_id: null,
      paid_at: null,
      created_at: now,
      updated_at: now,
    });
  }

  const answer = (provider: PaymentProvider, charge: Charge, orderId: string, checkoutUrl?: string): CreateOrderResponse => ({
    success: true,
    provider: provider.name,
    orderId,
    amountMinor: charge.amountMinor,
    currency: charge.currency,
    ...(provider.kind === 'signed' && provider.keyId ? { keyId: provider.keyId } : {}),
    ...(checkoutUrl ? { checkoutUrl } : {}),
  });

  /**
   * A Stripe Checkout Session for the gift: the open one again if the sender comes back while it can still be paid,
   * otherwise a new one (the old one closed; if it was paid meanwhile, the gift is marked paid instead).
   */
  async function stripeCheckout(provider: StripeCheckoutProvider, giftId: string, charge: Charge, open: Order | undefined) {
    if (open) {
      const session = await callProvider(() => provider.retrieveCheckout(open.provider_order_id));
      if (session?.status === 'open' && session.url) {
        await repo.touchOrder(db, open.id, clock.now().toISOString());
        return answer(provider, charge, open.provider_order_id, session.url);
      }
      if (session && sessionPaysOrder(open, session)) {
        await db.transaction().execute((trx) => markPaid(trx, open, session.paymentId));
        if (charge.purpose === 'gift') throw new AppError(409, 'gift_already_paid', texts.sender.giftAlreadyPaid);
      }
      await repo.closeOrder(db, open.id, clock.now().toISOString());
    }
    const orderRef = randomHex(16);
    const session = await callProvider(() =>
      provider.createCheckout({
        orderRef,
        giftId,
        amountMinor: charge.amountMinor,
        currency: charge.currency,
        description: charge.description,
        successUrl: `${publicOrigin}${checkoutReturnPaths.paid(giftId, CHECKOUT_SESSION_ID)}`,
        cancelUrl: `${publicOrigin}${charge.purpose === 'scans' ? addScansPath(giftId) : checkoutReturnPaths.cancelled(giftId)}`,
      }),
    );
    if (!session.url) throw new AppError(502, 'payment_provider_unavailable', texts.sender.paymentProviderUnavailable);
    await storeOrder({ id: orderRef, giftId, provider: 'stripe', providerOrderId: session.sessionId, charge });
    return answer(provider, charge, session.sessionId, session.url);
  }

  /** The order for a charge of the gift: the open one again (a second tab, Try Again: never charged twice), or new. */
  async function orderFor(gift: Gift, charge: Charge): Promise<CreateOrderResponse> {
    const provider = providers[charge.currency];
    const open = await repo.findOpenOrder(db, {
      giftId: gift.id,
      provider: provider.name,
      amountMinor: charge.amountMinor,
      currency: charge.currency,
      purpose: charge.purpose,
    });
    if (provider.kind === 'redirect') return stripeCheckout(provider, gift.id, charge, open);
    if (open) {
      // Housekeeping leaves a gift alone while it has a recent order; a checkout reopened after days is recent.
      await repo.touchOrder(db, open.id, clock.now().toISOString());
      return answer(provider, charge, open.provider_order_id);
    }
    // The amount comes from our price table, never from the client.
    const { orderId } = await provider.createOrder({
      amountMinor: charge.amountMinor,
      currency: charge.currency,
      receipt: `${charge.purpose === 'scans' ? 'scans' : 'gift'}_${gift.id.slice(0, 32)}`,
    });
    await storeOrder({ id: randomHex(16), giftId: gift.id, provider: provider.name, providerOrderId: orderId, charge });
    return answer(provider, charge, orderId);
  }

  /** More scans for the sender's paid gift while its plan is valid and has a scan limit (issue 40). */
  function scanCharge(gift: Gift, scans: number): Charge {
    if (gift.status !== 'active') throw new AppError(409, 'gift_not_paid', topUpTexts.notPaid);
    if (withdrawn(gift)) throw new AppError(409, 'gift_withdrawn', topUpTexts.withdrawn);
    const plan = planOf(gift);
    if (plan.scans === null) throw new AppError(409, 'scans_unlimited', topUpTexts.unlimited);
    const until = validUntil(gift, plan);
    if (until !== null && until <= clock.now().getTime()) throw new AppError(409, 'gift_expired', topUpTexts.ended);
    const price = SCAN_TOP_UPS[plan.currency];
    if (scans !== price.scans) throw new AppError(400, 'invalid_scans', topUpTexts.count);
    return {
      purpose: 'scans',
      amountMinor: price.amountMinor,
      currency: price.currency,
      scans,
      description: `GiftLens: ${scans} more scans for your gift`,
    };
  }

  return {
    async createOrder(sender: Sender, giftId: string, topUp?: { scans: number | undefined }): Promise<CreateOrderResponse> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      refuseIfTakenDown(gift);
      if (topUp) {
        if (topUp.scans === undefined) throw new AppError(400, 'invalid_scans', topUpTexts.count);
        return orderFor(gift, scanCharge(gift, topUp.scans));
      }
      if (gift.status === 'active') throw new AppError(409, 'gift_already_paid', texts.sender.giftAlreadyPaid);
      if (gift.status !== 'message_uploaded') {
        throw new AppError(409, 'gift_not_ready_for_payment', texts.sender.giftNotReadyForPayment);
      }
      return orderFor(gift, planCharge(planOf(gift)));
    },

    /**
     * The built-in test checkout "charges" a stored order of the sender's own gift and signs like Razorpay; another
     * sender's order is as unknown as a missing one.
     */
    async testPay(sender: Sender, orderId: string): Promise<TestPayResponse> {
      if (!testProvider) throw new AppError(404, 'not_found', texts.sender.notFound);
      const order = await repo.findOrderByProviderId(db, orderId);
      const gift = order ? await gifts.findSenderGift(db, order.gift_id, sender.id) : undefined;
      if (!order || order.provider !== 'test' || !gift) throw new AppError(404, 'order_not_found', texts.sender.notFound);
      return testProvider.pay(order.provider_order_id);
    },

    async verifyCallback(req: VerifyPaymentRequest): Promise<{ giftId: string; purpose: OrderPurpose }> {
      // Verify against the order we stored, never one described only by the callback.
      const order = await repo.findOrderByProviderId(db, req.orderId);
      const provider = signedProviders.find((p) => p.name === order?.provider);
      if (!order || !provider) throw signatureInvalid();
      if (!provider.verifyCheckout(order.provider_order_id, req.paymentId, req.signature)) throw signatureInvalid();
      await db.transaction().execute((trx) => markPaid(trx, order, req.paymentId));
      return { giftId: order.gift_id, purpose: order.purpose };
    },

    async handleWebhook(
      rawBody: Buffer,
      signature: string | undefined,
      eventIdHeader: string | undefined,
    ): Promise<{ duplicate: boolean }> {
      if (!webhookProvider?.verifyWebhook(rawBody, signature)) {
        throw new AppError(400, 'webhook_signature_invalid', texts.sender.paymentSignatureInvalid);
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new AppError(400, 'webhook_body_invalid', texts.sender.generic);
      }
      const body = WebhookBody.parse(json);
      const eventId = eventIdHeader?.trim() || `sha256:${sha256Hex(rawBody.toString('utf8'))}`;
      return db.transaction().execute(async (trx) => {
        const first = await repo.recordWebhookEvent(trx, {
          id: eventId,
          provider: webhookProvider.name,
          eventType: body.event,
          now: clock.now().toISOString(),
        });
        if (!first) return { duplicate: true };
        const payment = body.payload?.payment?.entity;
        let orderId: string | null | undefined;
        if (body.event === 'payment.captured') orderId = payment?.order_id;
        else if (body.event === 'order.paid') orderId = body.payload?.order?.entity.id ?? payment?.order_id;
        if (orderId) {
          const order = await repo.findOrderByProviderId(trx, orderId);
          if (order) await markPaid(trx, order, payment?.id ?? null);
        }
        return { duplicate: false };
      });
    },

    /**
     * The return from Stripe Checkout: the session is asked of Stripe itself, and the gift is paid only when that
     * session is paid for this order's exact amount and currency. No session cookie needed, as with Razorpay.
     */
    async verifyCheckoutSession(sessionId: string): Promise<{ giftId: string; purpose: OrderPurpose }> {
      const order = await repo.findOrderByProviderId(db, sessionId);
      if (!order || order.provider !== 'stripe' || !stripe) throw notVerified();
      if (order.status === 'paid') return { giftId: order.gift_id, purpose: order.purpose };
      const session = await callProvider(() => stripe.retrieveCheckout(sessionId));
      if (!session) throw notVerified();
      if (!sessionPaysOrder(order, session)) {
        // Paid, but not what we asked for (amount, currency, order): never a paid gift.
        if (session.paid) throw notVerified();
        throw new AppError(409, 'payment_not_completed', texts.sender.paymentNotCompleted);
      }
      await db.transaction().execute((trx) => markPaid(trx, order, session.paymentId));
      return { giftId: order.gift_id, purpose: order.purpose };
    },

    /**
     * Stripe's webhook: verified by the stripe package over the raw bytes, recorded once by its event id (a replay
     * changes nothing), then the session's order is paid (completed, async succeeded) or closed (async failed,
     * expired) so the next checkout starts a new session.
     */
    async handleStripeWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ duplicate: boolean }> {
      if (!stripe) throw new AppError(404, 'not_found', texts.sender.notFound);
      const event = stripe.readWebhook(rawBody, signature);
      if (!event) throw new AppError(400, 'webhook_signature_invalid', texts.sender.paymentSignatureInvalid);
      return db.transaction().execute(async (trx) => {
        const now = clock.now().toISOString();
        const first = await repo.recordWebhookEvent(trx, { id: event.id, provider: 'stripe', eventType: event.type, now });
        if (!first) return { duplicate: true };
        const session = event.session;
        const order = session ? await repo.findOrderByProviderId(trx, session.sessionId) : undefined;
        if (session && order?.provider === 'stripe') {
          if (event.outcome === 'paid' && sessionPaysOrder(order, session)) await markPaid(trx, order, session.paymentId);
          else if (event.outcome === 'failed') await repo.closeOrder(trx, order.id, now);
        }
        return { duplicate: false };
      });
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
