import { MAX_REFERENCE_PHOTOS } from '@giftlens/contract/constants';
import { ImagePlus, Loader2, X } from 'lucide-react';
import { useEffect, useRef, type ChangeEvent } from 'react';
import { FieldShell, useFieldIds } from '../../../components/ui/field.tsx';

interface GiftPhotosFieldProps {
  photos: readonly File[];
  compressing: boolean;
  error: string | undefined;
  onAdd: (e: ChangeEvent<HTMLInputElement>) => void;
  onRemove: (index: number) => void;
}

/** Up to three photos of the gift: previews with a remove button, and the dashed card that adds one. */
export function GiftPhotosField({ photos, compressing, error, onAdd, onRemove }: GiftPhotosFieldProps) {
  const ids = useFieldIds(undefined, { error });
  const imageId = ids.controlId;
  return (
    <FieldShell {...ids} label="Gift photo" error={error}>
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
                onClick={() => onRemove(i)}
                aria-label={`Remove photo ${i + 1}`}
                className="absolute top-2 right-2 flex size-9 items-center justify-center rounded-full bg-white/90 text-stone-700 shadow hover:bg-white"
              >
                <X className="size-5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {/* Before the drop zone, so the zone (its peer) shows the keyboard focus the hidden input has. */}
      <input
        id={imageId}
        type="file"
        accept="image/*"
        multiple
        className="peer sr-only"
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        onChange={onAdd}
      />
      {photos.length < MAX_REFERENCE_PHOTOS ? (
        <label
          htmlFor={imageId}
          className={`flex cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed px-4 text-center peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 hover:bg-brand-50 ${error ? 'border-red-400' : 'border-stone-300'} ${photos.length > 0 ? 'py-3' : 'py-6'}`}
        >
          {compressing ? (
            <Loader2 className="size-7 animate-spin text-brand-500" aria-hidden />
          ) : (
            <ImagePlus className="size-7 text-brand-500" aria-hidden />
          )}
          <span className="font-semibold text-stone-800">
            {compressing ? 'Optimising photo…' : photos.length > 0 ? 'Add another photo (optional)' : 'Upload a photo of the gift'}
          </span>
          <span className="text-xs text-stone-500">PNG, JPG, GIF up to 10MB</span>
        </label>
      ) : null}
      <p className="text-xs text-stone-500">
        Your recipient reveals the message by photographing this gift, so use a clear, well-lit photo. Up to{' '}
        {MAX_REFERENCE_PHOTOS} photos: another angle, the box or a label helps us recognise it.
      </p>
    </FieldShell>
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
