import type { Currency } from '@giftlens/contract/plans';
import { deriveKey, hmacHex, randomBase62, safeEqual } from '../lib/crypto.ts';
import type { StripeCheckoutProvider } from './stripe.ts';

export interface CreateProviderOrder {
  amountMinor: number;
  currency: string;
  receipt: string;
}

/**
 * A provider whose checkout returns a signed `orderId|paymentId` (Razorpay's modal, the built-in test checkout): it
 * creates orders and checks its own signatures; its secrets never leave it.
 */
export interface SignedCheckoutProvider {
  kind: 'signed';
  name: 'razorpay' | 'test';
  /** Public key id for checkout.js (Razorpay only). */
  keyId: string | undefined;
  createOrder(input: CreateProviderOrder): Promise<{ orderId: string }>;
  /** Is this the provider's signature of the checkout's return (`orderId|paymentId`)? */
  verifyCheckout(orderId: string, paymentId: string, signature: string): boolean;
  /** Is this the provider's signature of these exact webhook bytes? */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): boolean;
  /** Refunds a captured payment in full; answers the provider's refund id. Throws when the provider refuses. */
  refund(paymentId: string, amountMinor: number): Promise<{ refundId: string }>;
}

/** Either kind: a signed return (Razorpay, test) or a redirect checkout verified by asking the provider (Stripe). */
export type PaymentProvider = SignedCheckoutProvider | StripeCheckoutProvider;

/** The provider each currency's orders go to: INR → Razorpay, USD → Stripe (the test checkout where one is missing). */
export type PaymentProviders = Record<Currency, PaymentProvider>;

/** Signs exactly as Razorpay's checkout does: HMAC-SHA256(orderId + "|" + paymentId), hex. */
const checkoutSignature = (keySecret: string, orderId: string, paymentId: string) =>
  hmacHex(keySecret, `${orderId}|${paymentId}`);

/** Razorpay's two checks: the checkout return and the webhook body, each an HMAC-SHA256 in hex. */
function razorpaySignatures(keySecret: string, webhookSecret: string) {
  return {
    verifyCheckout: (orderId: string, paymentId: string, signature: string) =>
      safeEqual(checkoutSignature(keySecret, orderId, paymentId), signature.toLowerCase()),
    verifyWebhook: (rawBody: Buffer, signature: string | undefined) =>
      signature !== undefined && safeEqual(hmacHex(webhookSecret, rawBody), signature.toLowerCase()),
  };
}

/**
 * Built-in test provider (no Razorpay keys): ids and signatures have Razorpay's shape, signed with secrets derived
 * from SESSION_SECRET, so the whole verify path runs for real.
 */
export function createTestPaymentProvider(sessionSecret: string): SignedCheckoutProvider & {
  pay(orderId: string): { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
} {
  const keySecret = deriveKey(sessionSecret, 'test-payments-key');
  return {
    kind: 'signed',
    name: 'test',
    keyId: undefined,
    ...razorpaySignatures(keySecret, deriveKey(sessionSecret, 'test-payments-webhook')),
    createOrder: () => Promise.resolve({ orderId: `order_${randomBase62(14)}` }),
    // No money moved, so none goes back: the refund is recorded with an id of Razorpay's shape.
    refund: () => Promise.resolve({ refundId: `rfnd_${randomBase62(14)}` }),
    pay(orderId) {
      const paymentId = `pay_${randomBase62(14)}`;
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: checkoutSignature(keySecret, orderId, paymentId),
      };
    },
  };
}

export type TestPaymentProvider = ReturnType<typeof createTestPaymentProvider>;

/** Razorpay Orders API over fetch with basic auth. */
export function createRazorpayProvider(
  keys: { keyId: string; keySecret: string; webhookSecret: string },
  fetchImpl: typeof fetch = fetch,
  baseUrl = 'https://api.razorpay.com',
): SignedCheckoutProvider {
  return {
    kind: 'signed',
    name: 'razorpay',
    keyId: keys.keyId,
    ...razorpaySignatures(keys.keySecret, keys.webhookSecret),
    async createOrder({ amountMinor, currency, receipt }) {
      const res = await fetchImpl(`${baseUrl}/v1/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}`,
        },
        body: JSON.stringify({ amount: amountMinor, currency, receipt }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`Razorpay order creation failed: HTTP ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { id?: unknown };
      if (typeof body.id !== 'string') throw new Error('Razorpay order creation returned no id');
      return { orderId: body.id };
    },
    // Razorpay's refund of a captured payment (POST /v1/payments/{id}/refund), in full.
    async refund(paymentId, amountMinor) {
      const res = await fetchImpl(`${baseUrl}/v1/payments/${encodeURIComponent(paymentId)}/refund`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}`,
        },
        body: JSON.stringify({ amount: amountMinor, speed: 'normal' }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`Razorpay refund failed: HTTP ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { id?: unknown };
      if (typeof body.id !== 'string') throw new Error('Razorpay refund returned no id');
      return { refundId: body.id };
    },
  };
}
