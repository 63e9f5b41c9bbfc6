import { GIFT_IMAGE_MAX_BYTES, MAX_REFERENCE_PHOTOS } from '@giftlens/contract/constants';
import { type AddGiftPhotoResponse, LOW_RATING, type PhotoQuality } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { useRef, useState, type ChangeEvent } from 'react';
import { useAddGiftPhoto } from '../api/add-gift-photo.ts';
import { compressGiftImage } from '../lib/compress-image.ts';

/** What the sender is told about the gift's photos after creating it: its rating, look-alikes, how many photos. */
export interface PhotoCheck {
  quality: PhotoQuality | null;
  lookalike: boolean;
  photoCount: number;
}

/**
 * The gift's check after another photo: a gift is as recognisable as its best photo, and stays a look-alike once
 * one of its photos is (the recipient's scan of it would still find the other gift).
 */
export function withAddedPhoto(check: PhotoCheck, res: AddGiftPhotoResponse): PhotoCheck {
  const better = !check.quality || res.quality.rating > check.quality.rating;
  return { quality: better ? res.quality : check.quality, lookalike: check.lookalike || res.lookalike, photoCount: res.photoCount };
}

/** The rating panel's state: the check, and adding another angle through the image picker. */
export function usePhotoCheck({ giftId, check, onChange }: { giftId: string; check: PhotoCheck; onChange: (next: PhotoCheck) => void }) {
  const addPhoto = useAddGiftPhoto();
  const picker = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [compressing, setCompressing] = useState(false);
  const rating = check.quality?.rating ?? null;
  const low = rating !== null && rating <= LOW_RATING;
  const full = check.photoCount >= MAX_REFERENCE_PHOTOS;

  const openPicker = () => picker.current?.click();

  const chosen = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || addPhoto.isPending) return;
    setError(null);
    if (!file.type.startsWith('image/')) return setError(texts.sender.giftImageInvalid);
    setCompressing(true);
    const image = await compressGiftImage(file);
    setCompressing(false);
    if (image.size > GIFT_IMAGE_MAX_BYTES) return setError(texts.sender.giftImageInvalid);
    addPhoto.mutate({ giftId, image }, { onSuccess: (res) => onChange(withAddedPhoto(check, res)), onError: (err) => setError(err.message) });
  };

  return { rating, low, full, reasons: check.quality?.reasons ?? [], lookalike: check.lookalike, picker, openPicker, chosen, busy: compressing || addPhoto.isPending, error };
}
