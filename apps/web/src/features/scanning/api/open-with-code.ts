import { OpenWithCodeResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type OpenWithCodeRequest = { flow: 'direct'; giftId: string; code: string } | { flow: 'recipient'; recipientId: string; code: string };

/**
 * POST open-with-code (decision 039): the gift link's gift, or one of the recipient session's gifts, opened by its
 * backup code. A right code answers as a matching scan (the reveal grant cookie set); a wrong one 400, too many 429.
 */
export function openWithCode(req: OpenWithCodeRequest) {
  const options = { fallbackError: texts.recipient.unexpected, schema: OpenWithCodeResponse };
  return req.flow === 'direct'
    ? apiRequest('POST', API.openWithCodeDirect(req.giftId), { code: req.code }, options)
    : apiRequest('POST', API.openWithCode, { code: req.code, recipient_id: req.recipientId }, options);
}

export const useOpenWithCode = () => useMutation({ mutationFn: openWithCode });
