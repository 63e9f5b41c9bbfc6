import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import { VerifyResponse, type VerifyEmailRequest } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST verify-email: on success the server sets the sender's session cookie. */
export function verifyEmailCode(body: VerifyEmailRequest) {
  return apiRequest('POST', API.verifyEmail, body, { fallbackError: M.invalidCode, schema: VerifyResponse });
}

export function useVerifyEmailCode() {
  return useMutation({ mutationFn: verifyEmailCode });
}
