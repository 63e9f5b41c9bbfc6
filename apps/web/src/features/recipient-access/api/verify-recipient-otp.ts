import { RECIPIENT_API, RecipientVerifyOtpResponse, RM } from '@giftlens/contract/recipient';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST verify-otp: on success the server starts a recipient session limited to this e-mail's gifts. */
export function verifyRecipientOtp({ email, code }: { email: string; code: string }) {
  return apiRequest('POST', RECIPIENT_API.verifyOtp, { email, code, type: 'recipient' }, {
    fallbackError: RM.verifyCodeFailed,
    schema: RecipientVerifyOtpResponse,
  });
}

export function useVerifyRecipientOtp() {
  return useMutation({ mutationFn: verifyRecipientOtp });
}
