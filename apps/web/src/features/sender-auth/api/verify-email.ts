import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { VerifyResponse, type VerifyEmailRequest } from '@giftlens/contract/sender';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { senderMeQueryKey } from '../../../api/sender-me.ts';

/** POST verify-email: on success the server sets the sender's session cookie. */
export function verifyEmailCode(body: VerifyEmailRequest) {
  return apiRequest('POST', API.verifyEmail, body, { fallbackError: texts.sender.invalidCode, schema: VerifyResponse });
}

export function useVerifyEmailCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmailCode,
    // A new session (perhaps another sender's): who is signed in is asked again wherever it is shown.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: senderMeQueryKey }),
  });
}
