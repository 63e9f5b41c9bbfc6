import { CreateOrderRequest, TestPayRequest, VerifyCheckoutSessionRequest, VerifyPaymentRequest } from '@giftlens/contract/payments';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RequireSender } from '../sender-auth/sender-session.ts';
import type { PaymentsService } from './payments.service.ts';

const tags = ['payments'];

export function paymentsRoutes(
  app: FastifyInstance,
  opts: {
    service: PaymentsService;
    requireSender: RequireSender;
    testMode: boolean;
    /** Per-client limit on verify-payment-callback: a signature check must not be guessable by volume. */
    verifyRateLimit: { max: number; timeWindow: number };
  },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    API.createOrder,
    { preValidation: requireSender.hook, schema: { tags, summary: 'The provider order for the gift’s plan and region', body: CreateOrderRequest } },
    async (request) => {
      const { giftId, purpose, scans } = request.body;
      return service.createOrder(await requireSender(request), giftId, purpose === 'scans' ? { scans } : undefined);
    },
  );

  if (opts.testMode) {
    api.post(
      API.testPay,
      {
        preValidation: requireSender.hook,
        schema: { tags, summary: 'The built-in test checkout pays the sender’s own order (test mode only)', body: TestPayRequest },
      },
      async (request) => service.testPay(await requireSender(request), request.body.orderId),
    );
  }

  // The signature is the proof of payment, so this works even if the session cookie was lost on the way back.
  api.post(
    API.verifyPayment,
    {
      config: { validationFallback: texts.sender.paymentVerificationFailed, rateLimit: opts.verifyRateLimit },
      schema: { tags, summary: 'Verify the checkout’s signed return and mark the gift paid', body: VerifyPaymentRequest },
    },
    async (request) => {
      const { giftId, purpose } = await service.verifyCallback(request.body);
      return { success: true, giftId, purpose };
    },
  );

  // The return from Stripe Checkout: the server asks Stripe about the session, so no session cookie is needed.
  api.post(
    API.verifyCheckoutSession,
    {
      config: { validationFallback: texts.sender.paymentVerificationFailed, rateLimit: opts.verifyRateLimit },
      schema: {
        tags,
        summary: 'Verify the return from Stripe Checkout (the session is retrieved from Stripe) and mark the gift paid',
        body: VerifyCheckoutSessionRequest,
      },
    },
    async (request) => {
      const { giftId, purpose } = await service.verifyCheckoutSession(request.body.sessionId);
      return { success: true, giftId, purpose };
    },
  );

  // The webhooks sign the exact bytes, so their scope keeps the raw body.
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    const raw = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));
    const header = (request: FastifyRequest, name: string) => {
      const v = request.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const webhook = { tags, summary: 'Razorpay’s signed webhook (raw body, X-Razorpay-Signature)' };
    scope.post(API.paymentWebhook, { schema: webhook }, async (request) => {
      const { duplicate } = await service.handleWebhook(
        raw(request.body),
        header(request, 'x-razorpay-signature'),
        header(request, 'x-razorpay-event-id'),
      );
      return { success: true, duplicate };
    });
    const stripeWebhook = {
      tags,
      summary: 'Stripe’s signed webhook (raw body, Stripe-Signature): checkout.session.completed, async_payment_succeeded/failed, expired; 404 without Stripe keys',
    };
    scope.post(API.stripeWebhook, { schema: stripeWebhook }, async (request) => {
      const { duplicate } = await service.handleStripeWebhook(raw(request.body), header(request, 'stripe-signature'));
      return { success: true, duplicate };
    });
    done();
  });
  done();
}
