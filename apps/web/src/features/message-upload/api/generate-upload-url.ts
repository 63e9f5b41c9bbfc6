import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { GenerateUploadUrlResponse, type GenerateUploadUrlRequest } from '@giftlens/contract/sender';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST generate-upload-url: a signed URL the raw file is PUT to. Called by the upload manager, not a component. */
export function generateUploadUrl(body: GenerateUploadUrlRequest) {
  return apiRequest('POST', API.generateUploadUrl, body, {
    fallbackError: texts.sender.uploadUrlFailed,
    schema: GenerateUploadUrlResponse,
  });
}
