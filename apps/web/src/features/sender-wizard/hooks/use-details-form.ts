import { GIFT_IMAGE_MAX_BYTES, MAX_REFERENCE_PHOTOS } from '@giftlens/contract/constants';
import type { Occasion } from '@giftlens/contract/occasions';
import type { PlanId } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast.ts';
import { useSubmitGift } from '../api/submit-gift.ts';
import { compressGiftImage } from '../lib/compress-image.ts';
import { detailsResolver, type DetailsFormIn, type DetailsFormOut } from '../lib/form-schemas.ts';
import type { PhotoCheck } from './use-photo-check.ts';

export interface CreatedGift {
  giftId: string;
  /** the photos' rating and look-alike flag, shown on the message step */
  photoCheck: PhotoCheck;
  occasion: Occasion;
  recipientName: string;
  recipientEmail: string;
}

/** What the details form holds before the gift is created (kept by the wizard, so Back and forth keep it). */
export interface DetailsDraft {
  occasion: Occasion | '';
  recipientName: string;
  recipientEmail: string;
}

export interface DetailsFormOptions {
  senderEmail: string;
  planId: PlanId;
  initial: DetailsDraft | null;
  /** The photos chosen so far (the wizard keeps them while the visitor goes back and forth). */
  photos: readonly File[];
  onPhotosChange: (photos: File[]) => void;
  /** Every change of the fields, so going Back and returning shows what was entered. */
  onDraftChange: (draft: DetailsDraft) => void;
  onCreated: (gift: CreatedGift) => void;
}

/** The gift details form: its fields and checks, the gift photos (compressed as chosen), and creating the gift. */
export function useDetailsForm({ senderEmail, planId, initial, photos, onPhotosChange, onDraftChange, onCreated }: DetailsFormOptions) {
  const submitGift = useSubmitGift();
  const [compressing, setCompressing] = useState(false);

  const form = useForm<DetailsFormIn, unknown, DetailsFormOut>({
    resolver: detailsResolver,
    defaultValues: {
      occasion: (initial?.occasion ?? '') as Occasion,
      recipientName: initial?.recipientName ?? '',
      recipientEmail: initial?.recipientEmail ?? '',
      giftImages: [...photos],
    },
  });

  // What is typed is handed to the wizard as it changes.
  const draftChanged = useRef(onDraftChange);
  useEffect(() => {
    draftChanged.current = onDraftChange;
  });
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: ({ values }) =>
          draftChanged.current({
            occasion: values.occasion ?? '',
            recipientName: values.recipientName ?? '',
            recipientEmail: values.recipientEmail ?? '',
          }),
      }),
    [form],
  );

  const applyPhotos = (next: File[]) => {
    onPhotosChange(next);
    form.setValue('giftImages', next, { shouldValidate: form.formState.isSubmitted || next.length > 0 });
  };

  const addPhotos = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.target;
    const chosen = Array.from(input.files ?? []).slice(0, MAX_REFERENCE_PHOTOS - photos.length);
    input.value = '';
    if (chosen.length === 0) return;
    if (chosen.some((f) => !f.type.startsWith('image/'))) {
      form.setError('giftImages', { message: texts.sender.giftImageInvalid });
      return;
    }
    setCompressing(true);
    const compressed = await Promise.all(chosen.map(compressGiftImage));
    setCompressing(false);
    if (compressed.some((f) => f.size > GIFT_IMAGE_MAX_BYTES)) {
      form.setError('giftImages', { message: texts.sender.giftImageInvalid });
      return;
    }
    applyPhotos([...photos, ...compressed]);
  };

  const removePhoto = (index: number) => applyPhotos(photos.filter((_, i) => i !== index));

  // The e-mail is kept in lower case as it is typed.
  const lowerCaseEmail = (e: ChangeEvent<HTMLInputElement>) => {
    const lower = e.target.value.toLowerCase();
    if (lower !== e.target.value) form.setValue('recipientEmail', lower, { shouldValidate: form.formState.isSubmitted });
  };

  const submit = form.handleSubmit((values) => {
    if (submitGift.isPending) return;
    const { recipientName, occasion, recipientEmail } = values;
    submitGift.mutate(
      { fields: { senderEmail, recipientName, occasion, planId, recipientEmail }, giftImages: values.giftImages },
      {
        onSuccess: (res) => {
          toast.success('Gift created successfully!');
          if (res.quality && !res.quality.recognisable) toast.warning(texts.sender.recognisabilityLow, { duration: 10000 });
          if (res.lookalike) toast.warning(texts.sender.lookalikeWarning, { duration: 10000 });
          const photoCheck = { quality: res.quality ?? null, lookalike: res.lookalike, photoCount: values.giftImages.length };
          onCreated({ photoCheck, giftId: res.giftId, occasion, recipientName, recipientEmail });
        },
        onError: (err) => toast.error(err.message),
      },
    );
  });

  return { form, submitGift, compressing, addPhotos, removePhoto, lowerCaseEmail, submit };
}
