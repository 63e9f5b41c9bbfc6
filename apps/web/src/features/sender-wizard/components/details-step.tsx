import { GIFT_IMAGE_MAX_BYTES, MAX_REFERENCE_PHOTOS, RECIPIENT_NAME_MAX } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { OCCASIONS, occasionLabel, type Occasion } from '@giftlens/contract/occasions';
import type { PlanId } from '@giftlens/contract/plans';
import { ImagePlus, Loader2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSubmitGift } from '../api/submit-gift.ts';
import { detailsResolver, type DetailsFormIn, type DetailsFormOut } from '../lib/form-schemas.ts';
import { compressGiftImage } from '../utils/compress-image.ts';

export interface CreatedGift {
  giftId: string;
  photoWarning: string | null;
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

interface DetailsStepProps {
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

export function DetailsStep({
  senderEmail,
  planId,
  initial,
  photos,
  onPhotosChange,
  onDraftChange,
  onCreated,
}: DetailsStepProps) {
  const submitGift = useSubmitGift();
  const imageId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
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
  const { errors } = form.formState;

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

  const onImage = async (e: ChangeEvent<HTMLInputElement>) => {
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

  const submit = form.handleSubmit((values) => {
    if (submitGift.isPending) return;
    submitGift.mutate(
      {
        fields: {
          senderEmail,
          recipientName: values.recipientName,
          occasion: values.occasion,
          planId,
          recipientEmail: values.recipientEmail,
        },
        giftImages: values.giftImages,
      },
      {
        onSuccess: (res) => {
          toast.success('Gift created successfully!');
          const photoWarning =
            res.quality && !res.quality.recognisable
              ? (res.quality.message ??
                'This photo may be hard to recognise. A clearer, closer photo of the gift helps your recipient scan it.')
              : null;
          if (photoWarning) toast.warning(photoWarning, { duration: 10000 });
          onCreated({
            photoWarning,
            giftId: res.giftId,
            occasion: values.occasion,
            recipientName: values.recipientName,
            recipientEmail: values.recipientEmail,
          });
        },
        onError: (err) => toast.error(err.message),
      },
    );
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-5">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Add Gift Details</h1>
        <p className="mt-2 text-stone-600">Tell us who the gift is for and show us the gift.</p>
      </div>

      <SelectField label="Occasion" error={errors.occasion?.message} {...form.register('occasion')}>
        <option value="" disabled>
          Select an occasion
        </option>
        {OCCASIONS.map((o) => (
          <option key={o} value={o}>
            {occasionLabel(o)}
          </option>
        ))}
      </SelectField>

      <TextField
        label="Recipient name"
        autoComplete="off"
        maxLength={RECIPIENT_NAME_MAX}
        error={errors.recipientName?.message}
        {...form.register('recipientName')}
      />

      <TextField
        label="Recipient email"
        type="email"
        inputMode="email"
        autoComplete="off"
        placeholder="recipient@example.com"
        hint="We use it to deliver the gift link if you schedule it."
        error={errors.recipientEmail?.message}
        {...form.register('recipientEmail', {
          onChange: (e: ChangeEvent<HTMLInputElement>) => {
            const lower = e.target.value.toLowerCase();
            if (lower !== e.target.value) {
              form.setValue('recipientEmail', lower, { shouldValidate: form.formState.isSubmitted });
            }
          },
        })}
      />

      <div className="flex flex-col gap-1.5">
        <label htmlFor={imageId} className="text-sm font-medium text-stone-800">
          Gift photo
        </label>
        {photos.length > 0 ? (
          <ul className={`grid gap-2 ${photos.length === 1 ? 'grid-cols-1' : 'grid-cols-2 sm:grid-cols-3'}`}>
            {photos.map((file, i) => (
              <li key={i} className="relative overflow-hidden rounded-2xl border border-stone-200 bg-white">
                <FileImage
                  file={file}
                  alt={i === 0 ? 'Gift preview' : `Gift preview, photo ${i + 1}`}
                  className={`w-full ${photos.length === 1 ? 'max-h-72 object-contain' : 'aspect-square object-cover'}`}
                />
                <button
                  type="button"
                  onClick={() => removePhoto(i)}
                  aria-label={`Remove photo ${i + 1}`}
                  className="absolute top-2 right-2 flex size-9 items-center justify-center rounded-full bg-white/90 text-stone-700 shadow hover:bg-white"
                >
                  <X className="size-5" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {photos.length < MAX_REFERENCE_PHOTOS ? (
          <label
            htmlFor={imageId}
            className={`flex cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed px-4 text-center hover:bg-brand-50 ${errors.giftImages ? 'border-red-400' : 'border-stone-300'} ${photos.length > 0 ? 'py-3' : 'py-6'}`}
          >
            {compressing ? (
              <Loader2 className="size-7 animate-spin text-brand-500" aria-hidden />
            ) : (
              <ImagePlus className="size-7 text-brand-500" aria-hidden />
            )}
            <span className="font-semibold text-stone-800">
              {compressing
                ? 'Optimising photo…'
                : photos.length > 0
                  ? 'Add another photo (optional)'
                  : 'Upload a photo of the gift'}
            </span>
            <span className="text-xs text-stone-500">PNG, JPG, GIF up to 10MB</span>
          </label>
        ) : null}
        <input
          ref={fileInput}
          id={imageId}
          type="file"
          accept="image/*"
          multiple
          className="sr-only"
          onChange={(e) => void onImage(e)}
        />
        {errors.giftImages ? <p className="text-sm text-red-700">{errors.giftImages.message}</p> : null}
        <p className="text-xs text-stone-500">
          Your recipient reveals the message by photographing this gift, so use a clear, well-lit photo. Up to{' '}
          {MAX_REFERENCE_PHOTOS} photos: another angle, the box or a label helps us recognise it.
        </p>
      </div>

      {submitGift.isError ? <Alert>{submitGift.error.message}</Alert> : null}

      <Button type="submit" block disabled={submitGift.isPending || compressing}>
        {submitGift.isPending ? 'Creating gift…' : 'Continue'}
      </Button>
    </form>
  );
}

/** A chosen file shown as an image; its object URL lives as long as the image does. */
function FileImage({ file, alt, className }: { file: Blob; alt: string; className: string }) {
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (img.current) img.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return <img ref={img} alt={alt} className={className} />;
}
