import { texts } from '@giftlens/contract/texts';
import { ImagePlus } from 'lucide-react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { usePhotoCheck, type PhotoCheck } from '../hooks/use-photo-check.ts';

interface PhotoCheckPanelProps {
  giftId: string;
  check: PhotoCheck;
  onChange: (next: PhotoCheck) => void;
}

/** On the message step: how recognisable the gift's photos are, why when low, another angle, and look-alikes. */
export function PhotoCheckPanel({ giftId, check, onChange }: PhotoCheckPanelProps) {
  const { rating, low, full, reasons, lookalike, picker, openPicker, chosen, busy, error } = usePhotoCheck({ giftId, check, onChange });
  if (rating === null && !lookalike) return null;
  // a logo on a plain box: rated well, but a sibling product shares the logo (decision 056)
  const concentrated = !low && reasons.includes('concentrated');
  return (
    <div className="mb-6 flex flex-col gap-3">
      {lookalike ? (
        <Alert tone="warning">
          <p className="font-semibold">{texts.sender.lookalikeWarning}</p>
        </Alert>
      ) : null}
      {rating !== null ? (
        <div className={`rounded-xl border px-4 py-3 text-sm ${low ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-stone-200 bg-stone-50 text-stone-800'}`}>
          <RatingDots rating={rating} />
          {low ? (
            <div className="mt-2 flex flex-col gap-1">
              <p className="font-semibold">{texts.sender.recognisabilityLow}</p>
              <ul className="list-disc pl-5">
                {reasons.map((r) => (
                  <li key={r}>{texts.sender.qualityReasons[r]}</li>
                ))}
              </ul>
              <p>{texts.sender.addAnotherAngleAdvice}</p>
            </div>
          ) : null}
          {concentrated ? <p className="mt-2">{texts.sender.qualityReasons.concentrated}</p> : null}
          {low || lookalike || concentrated ? (
            full ? (
              <p className="mt-2">{texts.sender.maxPhotosReached}</p>
            ) : (
              <div className="mt-3">
                <input ref={picker} type="file" accept="image/*" className="sr-only" tabIndex={-1} aria-label={texts.sender.anotherAngleFile} onChange={(e) => void chosen(e)} />
                <Button variant="secondary" size="sm" onClick={openPicker} disabled={busy} aria-busy={busy}>
                  <ImagePlus className="size-4" aria-hidden />
                  {busy ? texts.sender.addingPhoto : texts.sender.addAnotherAngle}
                </Button>
              </div>
            )
          ) : null}
          {error ? (
            <p role="alert" className="mt-2 text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** Five dots, the first `rating` filled, with the rating as text (read out as one phrase). */
function RatingDots({ rating }: { rating: number }) {
  const label = texts.sender.recognisability(rating);
  return (
    <p className="flex items-center gap-2 font-semibold">
      <span className="flex gap-1" aria-hidden>
        {[1, 2, 3, 4, 5].map((i) => (
          <span key={i} className={`size-2.5 rounded-full ${i <= rating ? (rating <= 2 ? 'bg-amber-600' : 'bg-emerald-600') : 'bg-stone-300'}`} />
        ))}
      </span>
      <span data-testid="recognisability">{label}</span>
    </p>
  );
}
