import { RecipientSendOtpResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST send-otp (type "recipient"): e-mails a six-digit code; a 429 carries `retryAfter` seconds. */
export function sendRecipientOtp({ email, fallbackError }: { email: string; fallbackError: string }) {
  return apiRequest('POST', API.sendOtp, { email, type: 'recipient' }, {
    fallbackError,
    schema: RecipientSendOtpResponse,
  });
}

export function useSendRecipientOtp() {
  return useMutation({ mutationFn: sendRecipientOtp });
}
