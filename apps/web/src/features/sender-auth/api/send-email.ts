import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { SendCodeResponse, type SendEmailRequest } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST send-email: sends (or re-sends) the six-digit code; a 429 carries `retryAfter` seconds. */
export function sendEmailCode(body: SendEmailRequest) {
  return apiRequest('POST', API.sendEmail, body, { fallbackError: texts.sender.sendCodeFailed, schema: SendCodeResponse });
}

export function useSendEmailCode() {
  return useMutation({ mutationFn: sendEmailCode });
}
