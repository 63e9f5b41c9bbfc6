import { CheckEmailResponse, RECIPIENT_API, RM } from '@giftlens/contract/recipient';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST check-email: does this address have a gift ready to reveal? */
export function checkEmail(email: string) {
  return apiRequest('POST', RECIPIENT_API.checkEmail, { email }, {
    fallbackError: RM.verifyEmailFailed,
    schema: CheckEmailResponse,
  });
}

export function useCheckEmail() {
  return useMutation({ mutationFn: checkEmail });
}
