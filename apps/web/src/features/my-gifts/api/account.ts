import { LooseSuccessBody } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST logout (this session) or logout-everywhere (every session of the sender); both clear the cookie. */
export function signOut(everywhere: boolean) {
  return apiRequest('POST', everywhere ? API.logoutEverywhere : API.logout, undefined, {
    fallbackError: texts.sender.generic,
    schema: LooseSuccessBody,
  });
}

/** DELETE /api/gift-sender/account: every gift, subscriptions, sessions, codes and the sender; clears the cookie. */
export function deleteAccount() {
  return apiRequest('DELETE', API.account, undefined, { fallbackError: texts.sender.generic, schema: LooseSuccessBody });
}

export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
