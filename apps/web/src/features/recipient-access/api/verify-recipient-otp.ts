import { RecipientVerifyOtpResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST verify-otp: on success the server starts a recipient session limited to this e-mail's gifts. */
export function verifyRecipientOtp({ email, code }: { email: string; code: string }) {
  return apiRequest('POST', API.verifyOtp, { email, code, type: 'recipient' }, {
    fallbackError: texts.recipient.verifyCodeFailed,
    schema: RecipientVerifyOtpResponse,
  });
}

export function useVerifyRecipientOtp() {
  return useMutation({ mutationFn: verifyRecipientOtp });
}
