import { texts } from '@giftlens/contract/texts';
import { VerifyPaymentResponse } from '@giftlens/contract/payments';
import { API } from '@giftlens/contract/routes';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST verify-checkout-session: the server retrieves the Stripe Checkout Session and checks it pays this order. */
export function verifyCheckoutSession(sessionId: string) {
  return apiRequest('POST', API.verifyCheckoutSession, { sessionId }, {
    fallbackError: texts.sender.paymentVerificationFailed,
    schema: VerifyPaymentResponse,
  });
}
