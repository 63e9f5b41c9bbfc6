import { API } from '@giftlens/contract/routes';
import { AddGiftPhotoResponse } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST another photo of the gift (multipart, one `giftImage`): its rating, the photo count and the look-alike flag. */
export function addGiftPhoto({ giftId, image }: { giftId: string; image: File }) {
  const form = new FormData();
  form.append('giftImage', image, image.name);
  return apiRequest('POST', API.giftPhotos(giftId), form, { fallbackError: texts.sender.generic, schema: AddGiftPhotoResponse });
}

export function useAddGiftPhoto() {
  return useMutation({ mutationFn: addGiftPhoto });
}
