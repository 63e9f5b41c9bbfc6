import { CheckEmailResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST check-email: does this address have a gift ready to reveal? */
export function checkEmail(email: string) {
  return apiRequest('POST', API.checkEmail, { email }, {
    fallbackError: texts.recipient.verifyEmailFailed,
    schema: CheckEmailResponse,
  });
}

export function useCheckEmail() {
  return useMutation({ mutationFn: checkEmail });
}
