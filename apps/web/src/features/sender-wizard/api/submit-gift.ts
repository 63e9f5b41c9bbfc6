import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { SubmitGiftResponse, type SubmitGiftFields } from '@giftlens/contract/sender';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export interface SubmitGiftInput {
  fields: SubmitGiftFields;
  /** One to three photos of the gift; each is sent as a `giftImage` part. */
  giftImages: File[];
}

/** POST submit-gift (multipart): the gift fields plus the compressed photos, each as a `giftImage` part. */
export function submitGift({ fields, giftImages }: SubmitGiftInput) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value !== '') form.append(key, value);
  }
  for (const image of giftImages) form.append('giftImage', image, image.name);
  return apiRequest('POST', API.submitGift, form, { fallbackError: texts.sender.createGiftFailed, schema: SubmitGiftResponse });
}

export function useSubmitGift() {
  return useMutation({ mutationFn: submitGift });
}
