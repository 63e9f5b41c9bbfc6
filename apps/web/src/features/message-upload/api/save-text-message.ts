import { SuccessBody } from '@giftlens/contract/common';
import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import type { SaveTextMessageRequest } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export function saveTextMessage(body: SaveTextMessageRequest) {
  return apiRequest('POST', API.saveTextMessage, body, { fallbackError: M.generic, schema: SuccessBody.loose() });
}

export function useSaveTextMessage() {
  return useMutation({ mutationFn: saveTextMessage });
}
