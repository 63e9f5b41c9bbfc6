import { texts } from '@giftlens/contract/texts';
import { VerifyPaymentResponse, type VerifyPaymentRequest } from '@giftlens/contract/payments';
import { API } from '@giftlens/contract/routes';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST verify-payment-callback: the server checks the signature against the order it stored for the gift. */
export function verifyPayment(body: VerifyPaymentRequest) {
  return apiRequest('POST', API.verifyPayment, body, {
    fallbackError: texts.sender.paymentVerificationFailed,
    schema: VerifyPaymentResponse,
  });
}
