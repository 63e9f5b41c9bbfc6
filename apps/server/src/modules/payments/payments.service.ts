import { texts } from '@giftlens/contract/texts';
import type { CreateOrderResponse, TestPayResponse, VerifyPaymentRequest } from '@giftlens/contract/payments';
import { z } from 'zod';
import type { Clock } from '../../adapters/clock.ts';
import type { PaymentProvider, TestPaymentProvider } from '../../adapters/payments.ts';
import type { Db, Executor } from '../../db/database.ts';
import { randomHex, sha256Hex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { planOf } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import * as repo from './payments.repository.ts';
import type { Order } from './payments.table.ts';

export interface PaymentsDeps {
  db: Db;
  provider: PaymentProvider | TestPaymentProvider;
  clock: Clock;
}

const signatureInvalid = () => new AppError(400, 'payment_signature_invalid', texts.sender.paymentSignatureInvalid);

const WebhookBody = z.object({
  event: z.string(),
  payload: z
    .object({
      payment: z.object({ entity: z.object({ id: z.string(), order_id: z.string().nullish() }) }).optional(),
      order: z.object({ entity: z.object({ id: z.string() }) }).optional(),
    })
    .optional(),
});

export function createPaymentsService({ db, provider, clock }: PaymentsDeps) {
  async function markPaid(trx: Executor, order: Order, paymentId: string | null) {
    const now = clock.now().toISOString();
    await repo.markOrderPaid(trx, order.id, paymentId, now);
    await gifts.markGiftActive(trx, order.gift_id, now);
  }

  return {
    async createOrder(sender: Sender, giftId: string): Promise<CreateOrderResponse> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      if (gift.status === 'active') throw new AppError(409, 'gift_already_paid', texts.sender.giftAlreadyPaid);
      if (gift.status !== 'message_uploaded') {
        throw new AppError(409, 'gift_not_ready_for_payment', texts.sender.giftNotReadyForPayment);
      }
      const plan = planOf(gift);
      const answer = (orderId: string): CreateOrderResponse => ({
        success: true,
        provider: provider.name,
        orderId,
        amountMinor: plan.amountMinor,
        currency: plan.currency,
        ...(provider.keyId ? { keyId: provider.keyId } : {}),
      });
      // A second checkout (another tab, Try Again) pays the same order, so the gift cannot be charged twice.
      const open = await repo.findOpenOrder(db, {
        giftId: gift.id,
        provider: provider.name,
        amountMinor: plan.amountMinor,
        currency: plan.currency,
      });
      if (open) {
        // Housekeeping leaves a gift alone while it has a recent order; a checkout reopened after days is recent.
        await repo.touchOrder(db, open.id, clock.now().toISOString());
        return answer(open.provider_order_id);
      }
      // The amount comes from our plan table, never from the client.
      const { orderId } = await provider.createOrder({
        amountMinor: plan.amountMinor,
        currency: plan.currency,
        receipt: `gift_${gift.id.slice(0, 32)}`,
      });
      const now = clock.now().toISOString();
      await repo.insertOrder(db, {
        id: randomHex(16),
        gift_id: gift.id,
        provider: provider.name,
        provider_order_id: orderId,
        amount_minor: plan.amountMinor,
        currency: plan.currency,
        status: 'created',
        payment_id: null,
        paid_at: null,
        created_at: now,
        updated_at: now,
      });
      return answer(orderId);
    },

    /**
     * The built-in test checkout "charges" a stored order of the sender's own gift and signs like Razorpay; another
     * sender's order is as unknown as a missing one.
     */
    async testPay(sender: Sender, orderId: string): Promise<TestPayResponse> {
      if (!('pay' in provider)) throw new AppError(404, 'not_found', texts.sender.notFound);
      const order = await repo.findOrderByProviderId(db, orderId);
      const gift = order ? await gifts.findSenderGift(db, order.gift_id, sender.id) : undefined;
      if (!order || order.provider !== 'test' || !gift) throw new AppError(404, 'order_not_found', texts.sender.notFound);
      return provider.pay(order.provider_order_id);
    },

    async verifyCallback(req: VerifyPaymentRequest): Promise<{ giftId: string }> {
      // Verify against the order we stored, never one described only by the callback.
      const order = await repo.findOrderByProviderId(db, req.orderId);
      if (!order || order.provider !== provider.name) throw signatureInvalid();
      if (!provider.verifyCheckout(order.provider_order_id, req.paymentId, req.signature)) throw signatureInvalid();
      await db.transaction().execute((trx) => markPaid(trx, order, req.paymentId));
      return { giftId: order.gift_id };
    },

    async handleWebhook(
      rawBody: Buffer,
      signature: string | undefined,
      eventIdHeader: string | undefined,
    ): Promise<{ duplicate: boolean }> {
      if (!provider.verifyWebhook(rawBody, signature)) {
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
          provider: provider.name,
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
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
