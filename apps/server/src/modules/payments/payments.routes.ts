import { CreateOrderRequest, TestPayRequest, VerifyPaymentRequest } from '@giftlens/contract/payments';
import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import { parse, type RequireSender } from '../../lib/http.ts';
import type { PaymentsService } from './payments.service.ts';

export function paymentsRoutes(
  app: FastifyInstance,
  opts: { service: PaymentsService; requireSender: RequireSender; testMode: boolean },
) {
  const { service, requireSender } = opts;

  app.post(API.createOrder, async (request) => {
    const sender = await requireSender(request);
    const { giftId } = parse(CreateOrderRequest, request.body);
    return service.createOrder(sender, giftId);
  });

  if (opts.testMode) {
    app.post(API.testPay, async (request) => service.testPay(parse(TestPayRequest, request.body).orderId));
  }

  // The signature is the proof of payment, so this works even if the session cookie was lost on the way back.
  app.post(API.verifyPayment, async (request) => {
    const { giftId } = await service.verifyCallback(parse(VerifyPaymentRequest, request.body, M.paymentVerificationFailed));
    return { success: true, giftId };
  });

  // The webhook signs the exact bytes, so its scope keeps the raw body.
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(API.paymentWebhook, async (request) => {
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
