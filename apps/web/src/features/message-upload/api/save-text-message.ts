import { LooseSuccessBody } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import type { SaveTextMessageRequest } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export function saveTextMessage(body: SaveTextMessageRequest) {
  return apiRequest('POST', API.saveTextMessage, body, { fallbackError: texts.sender.generic, schema: LooseSuccessBody });
}

export function useSaveTextMessage() {
  return useMutation({ mutationFn: saveTextMessage });
}
