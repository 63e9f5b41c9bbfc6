import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import { SubmitGiftResponse, type SubmitGiftFields } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export interface SubmitGiftInput {
  fields: SubmitGiftFields;
  giftImage: File;
}

/** POST submit-gift (multipart): the gift fields plus the compressed photo as `giftImage`. */
export function submitGift({ fields, giftImage }: SubmitGiftInput) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value !== '') form.append(key, value);
  }
  form.append('giftImage', giftImage, giftImage.name);
  return apiRequest('POST', API.submitGift, form, { fallbackError: M.createGiftFailed, schema: SubmitGiftResponse });
}

export function useSubmitGift() {
  return useMutation({ mutationFn: submitGift });
}
