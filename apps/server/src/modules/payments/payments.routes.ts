import { CreateOrderRequest, TestPayRequest, VerifyPaymentRequest } from '@giftlens/contract/payments';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
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
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    API.createOrder,
    { preValidation: requireSender.hook, schema: { tags, summary: 'The provider order for the gift’s plan and region', body: CreateOrderRequest } },
    async (request) => service.createOrder(await requireSender(request), request.body.giftId),
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
      const { giftId } = await service.verifyCallback(request.body);
      return { success: true, giftId };
    },
  );

  // The webhook signs the exact bytes, so its scope keeps the raw body.
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    const webhook = { tags, summary: 'Razorpay’s signed webhook (raw body, X-Razorpay-Signature)' };
    scope.post(API.paymentWebhook, { schema: webhook }, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = (name: string) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const { duplicate } = await service.handleWebhook(
        raw,
        header('x-razorpay-signature'),
        header('x-razorpay-event-id'),
      );
      return { success: true, duplicate };
    });
    done();
  });
}
