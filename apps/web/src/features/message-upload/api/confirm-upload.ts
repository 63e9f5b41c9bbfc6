import { LooseSuccessBody } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import type { ConfirmUploadRequest } from '@giftlens/contract/sender';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST confirm-upload: tells the server the PUT finished so it can check and attach the file. */
export function confirmUpload(body: ConfirmUploadRequest) {
  return apiRequest('POST', API.confirmUpload, body, {
    fallbackError: texts.sender.confirmUploadFailed,
    schema: LooseSuccessBody,
  });
}
