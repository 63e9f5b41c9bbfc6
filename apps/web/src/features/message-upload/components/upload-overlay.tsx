import type { MessageType } from '@giftlens/contract/sender';
import { Loader2 } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import type { UploadState } from '../lib/upload-manager.ts';

/** Full-screen progress while the message uploads; the sender may go on (to checkout) meanwhile. */
export function UploadOverlay({
  state,
  messageType,
  onContinueInBackground,
  continueLabel = 'Continue to checkout now',
  continueNote = 'The upload keeps going in the background if you continue to checkout.',
}: {
  state: UploadState | undefined;
  messageType: MessageType;
  onContinueInBackground: () => void;
  continueLabel?: string;
  continueNote?: string;
}) {
  const progress = state?.progress ?? 0;
  const processing = progress >= 99;
  const label =
    state?.phase === 'caching' || !state
      ? 'Preparing your message…'
      : processing
        ? `Processing your ${messageType}`
        : 'Uploading your message…';
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="upload-overlay-title"
      className="fixed inset-0 z-50 flex items-center justify-center bg-stone-900/70 p-4 backdrop-blur-sm"
    >
      <div className="w-full max-w-sm rounded-3xl bg-white p-6 text-center shadow-xl">
        <Loader2 className="mx-auto size-10 animate-spin text-brand-500" aria-hidden />
        <h2 id="upload-overlay-title" className="mt-4 text-lg font-bold text-stone-900">
          {label}
        </h2>
        <p className="mt-1 text-3xl font-extrabold text-brand-600" aria-live="polite">
          {progress}%
        </p>
        <ProgressBar value={progress} label="Upload progress" className="mt-4 h-2.5" />
        <p className="mt-4 text-sm text-stone-600">
          Please keep this tab open. {continueNote}
        </p>
        <Button variant="secondary" block className="mt-4" onClick={onContinueInBackground}>
          {continueLabel}
        </Button>
      </div>
    </div>
  );
}
