import { PAYMENT_VERIFY_RETRIES, PAYMENT_VERIFY_RETRY_DELAY_MS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { VerifyPaymentResponse, type VerifyPaymentRequest } from '@giftlens/contract/payments';
import { API } from '@giftlens/contract/routes';
import { skipToken, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST verify-payment-callback: the server checks the signature against the order it stored for the gift. */
function verifyPayment(body: VerifyPaymentRequest, signal: AbortSignal) {
  return apiRequest('POST', API.verifyPayment, body, {
    fallbackError: texts.sender.paymentVerificationFailed,
    schema: VerifyPaymentResponse,
    signal,
  });
}

/** POST verify-checkout-session: the server retrieves the Stripe Checkout Session and checks it pays this order. */
function verifyCheckoutSession(sessionId: string, signal: AbortSignal) {
  return apiRequest('POST', API.verifyCheckoutSession, { sessionId }, {
    fallbackError: texts.sender.paymentVerificationFailed,
    schema: VerifyPaymentResponse,
    signal,
  });
}

/** What a checkout comes back with: a signed return (Razorpay, the test checkout) or a Stripe Checkout session. */
export type PaymentReturn = VerifyPaymentRequest | { sessionId: string };

/**
 * Verifies the payment the checkout came back with: one attempt, then up to 5 retries 2 s apart (TanStack
 * Query's retry; `failureCount` is the retry shown). Leaving the page stops it. Every visit checks afresh, and
 * an offline device fails like any other attempt instead of waiting for the network.
 */
export function useVerifyPayment(back: PaymentReturn | null) {
  return useQuery({
    queryKey: ['verify-payment', back],
    queryFn: back
      ? ({ signal }) => ('sessionId' in back ? verifyCheckoutSession(back.sessionId, signal) : verifyPayment(back, signal))
      : skipToken,
    retry: PAYMENT_VERIFY_RETRIES,
    retryDelay: PAYMENT_VERIFY_RETRY_DELAY_MS,
    networkMode: 'always',
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
