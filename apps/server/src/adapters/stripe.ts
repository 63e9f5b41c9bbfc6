import Stripe from 'stripe';

/** What our code needs to know about a Checkout Session, in our units (currency upper-case, as in plans). */
export interface CheckoutSessionFacts {
  sessionId: string;
  /** 'open' (can still be paid), 'complete' or 'expired'. */
  status: string | null;
  /** Stripe's payment_status is 'paid': the money is collected (not 'unpaid' or 'no_payment_required'). */
  paid: boolean;
  amountMinor: number | null;
  currency: string | null;
  /** client_reference_id: our order's id. */
  reference: string | null;
  /** metadata.order_id: our order's id again (Stripe copies metadata to its dashboard and exports). */
  metadataOrderId: string | null;
  /** The PaymentIntent id, recorded as the order's payment id. */
  paymentId: string | null;
  /** The hosted payment page while the session is open. */
  url: string | null;
}

export interface StripeWebhookEvent {
  id: string;
  type: string;
  /** What the event means for an order: paid (completed or async succeeded), failed (async failed, expired). */
  outcome: 'paid' | 'failed' | 'ignored';
  session: CheckoutSessionFacts | null;
}

export interface CreateCheckout {
  /** Our order id: the session's client_reference_id and metadata.order_id, and its idempotency key. */
  orderRef: string;
  giftId: string;
  amountMinor: number;
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
}

/** Stripe Checkout behind our own interface: the keys stay here, services see facts about sessions. */
export interface StripeCheckoutProvider {
  kind: 'redirect';
  name: 'stripe';
  createCheckout(input: CreateCheckout): Promise<CheckoutSessionFacts>;
  /** The session as Stripe has it now; null when Stripe does not know the id. */
  retrieveCheckout(sessionId: string): Promise<CheckoutSessionFacts | null>;
  /** The event, when `stripe-signature` signs these exact bytes with the webhook secret (and is recent); else null. */
  readWebhook(rawBody: Buffer, signature: string | undefined): StripeWebhookEvent | null;
  /** Refunds the PaymentIntent in full; answers Stripe's refund id. */
  refund(paymentId: string, amountMinor: number): Promise<{ refundId: string }>;
}

export interface StripeKeys {
  secretKey: string;
  webhookSecret: string;
  /** Where the API is: https://api.stripe.com, or a loopback stand-in in tests. */
  apiUrl?: string;
}

function facts(s: Stripe.Checkout.Session): CheckoutSessionFacts {
  const pi = s.payment_intent;
  return {
    sessionId: s.id,
    status: s.status,
    paid: s.payment_status === 'paid',
    amountMinor: s.amount_total,
    currency: s.currency ? s.currency.toUpperCase() : null,
    reference: s.client_reference_id,
    metadataOrderId: s.metadata?.order_id ?? null,
    paymentId: typeof pi === 'string' ? pi : (pi?.id ?? null),
    url: s.url,
  };
}

export function createStripeCheckoutProvider(keys: StripeKeys): StripeCheckoutProvider {
  const api = new URL(keys.apiUrl ?? 'https://api.stripe.com');
  const stripe = new Stripe(keys.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'http:' ? 80 : 443),
    protocol: api.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
  });

  return {
    kind: 'redirect',
    name: 'stripe',
    async createCheckout(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: input.amountMinor,
                product_data: { name: input.description },
              },
            },
          ],
          client_reference_id: input.orderRef,
          metadata: { order_id: input.orderRef, gift_id: input.giftId },
          payment_intent_data: { metadata: { order_id: input.orderRef, gift_id: input.giftId } },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        // A retried create (network hiccup) returns the same session instead of a second one.
        { idempotencyKey: `giftlens-order-${input.orderRef}` },
      );
      return facts(session);
    },
    async refund(paymentId) {
      // The PaymentIntent's whole amount; the idempotency key makes a retried call the same refund.
      const refund = await stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey: `giftlens-refund-${paymentId}` });
      return { refundId: refund.id };
    },
    async retrieveCheckout(sessionId) {
      try {
        return facts(await stripe.checkout.sessions.retrieve(sessionId));
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },
    readWebhook(rawBody, signature) {
      if (!signature) return null;
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, keys.webhookSecret);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError) return null;
        throw err;
      }
      if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
        return { id: event.id, type: event.type, outcome: 'paid', session: facts(event.data.object) };
      }
      if (event.type === 'checkout.session.async_payment_failed' || event.type === 'checkout.session.expired') {
        return { id: event.id, type: event.type, outcome: 'failed', session: facts(event.data.object) };
      }
      return { id: event.id, type: event.type, outcome: 'ignored', session: null };
    },
  };
}
