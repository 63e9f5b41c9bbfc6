import { LooseSuccessBody } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import type { UpdateUserRequest } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export function updateUser(body: UpdateUserRequest) {
  return apiRequest('POST', API.updateUser, body, { fallbackError: texts.sender.saveUserFailed, schema: LooseSuccessBody });
}

export function useUpdateUser() {
  return useMutation({ mutationFn: updateUser });
}
