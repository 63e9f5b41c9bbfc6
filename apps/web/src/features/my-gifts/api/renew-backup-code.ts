import { NewBackupCodeResponse } from '@giftlens/contract/backup-code';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useRefreshMyGifts } from './my-gifts.ts';

/** POST gifts/{giftId}/backup-code: a new code for the gift; the old one stops working at once. */
export function renewBackupCode(giftId: string) {
  return apiRequest('POST', API.backupCode(giftId), undefined, {
    fallbackError: texts.backupCode.regenerateFailed,
    schema: NewBackupCodeResponse,
  });
}

export function useRenewBackupCode() {
  const refresh = useRefreshMyGifts();
  return useMutation({ mutationFn: renewBackupCode, onSuccess: refresh });
}
