import { MAX_SCAN_ATTEMPTS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { X } from 'lucide-react';
import { useRef } from 'react';
import { ShutterButton } from '../../../camera/shutter-button.tsx';
import { CameraHint } from '../../../components/ui/camera-hint.tsx';
import type { useScanner } from '../hooks/use-scanner.ts';
import { RetryDialog } from './retry-dialog.tsx';
import { FrameHintPill } from './frame-hint-pill.tsx';
import { SCAN_KEYFRAMES, ScanProgress, Viewfinder } from './scanner-parts.tsx';

export type ScannerState = ReturnType<typeof useScanner>;

/** What the line under the viewfinder says, from the camera's and the scan's state. */
function statusText(s: Omit<ScannerState, 'attachVideo'>): string {
  if (s.camera.status === 'starting') return 'Starting your camera…';
  if (s.cameraMessage) return s.cameraMessage;
  // The server was busy: its text while the same photo waits to be sent again.
  if (s.status === 'scanning') return s.waiting ?? 'Scanning your gift…';
  if (s.status === 'success') return 'Gift found! Opening your message…';
  if (s.status === 'failed') return s.error ?? 'That did not work.';
  // Live scanning: quiet while it looks; once its budget is spent, Take Photo is the way on.
  if (s.live === 'looking') return s.stillLooking ? texts.recipient.stillLooking : texts.recipient.looking;
  if (s.live === 'spent') return texts.recipient.liveBudgetSpent;
  return 'Hold your gift inside the frame';
}

/** The camera screen: the live picture, the viewfinder, progress, Take Photo, the retry dialog. */
export function ScannerView({ attachVideo, ...s }: ScannerState) {
  const scanning = s.status === 'scanning';
  const shutter = useRef<HTMLButtonElement>(null);

  return (
    <div className="fixed inset-0 z-30 flex flex-col overflow-hidden bg-stone-950 text-white">
      <style>{SCAN_KEYFRAMES}</style>
      <video ref={attachVideo} muted playsInline autoPlay aria-hidden className="absolute inset-0 h-full w-full object-cover" />
      {s.image ? (
        <img src={s.image} alt="The photo being scanned" className="absolute inset-0 h-full w-full object-cover" />
      ) : null}
      <div className="absolute inset-0 bg-gradient-to-b from-black/60 via-transparent to-black/70" aria-hidden />

      <header className="relative flex items-center justify-between gap-3 px-3 pt-[max(0.75rem,env(safe-area-inset-top))] sm:px-6">
        <button
          type="button"
          onClick={s.cancel}
          className="inline-flex min-h-11 items-center gap-1.5 rounded-full bg-black/40 px-4 font-semibold backdrop-blur hover:bg-black/60 focus-visible:outline-2 focus-visible:outline-white"
        >
          <X className="size-5" aria-hidden />
          Cancel
        </button>
        <h1 className="sr-only sm:not-sr-only sm:text-lg sm:font-semibold">Scan your gift</h1>
        <p className="rounded-full bg-black/40 px-3 py-1.5 text-sm whitespace-nowrap text-white/90 backdrop-blur">
          Attempt {Math.min(s.attempts + 1, MAX_SCAN_ATTEMPTS)} of {MAX_SCAN_ATTEMPTS}
        </p>
      </header>

      <div className="relative flex flex-1 flex-col items-center justify-center gap-4 px-6">
        <Viewfinder animating={s.animating} status={s.status} />
        <FrameHintPill hint={s.status === 'ready' && !s.retryPrompt ? s.hint : null} />
      </div>

      <footer className="relative flex flex-col items-center gap-4 px-4 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
        <div role="status" aria-live="polite" className="flex min-h-16 flex-col items-center gap-2 text-center">
          <CameraHint>{statusText(s)}</CameraHint>
          {scanning && s.phase ? <ScanProgress phase={s.phase} /> : null}
        </div>

        <ShutterButton ref={shutter} look="labelled" onPress={s.takePhoto} disabled={!s.canTakePhoto} />
      </footer>

      <RetryDialog
        kind={s.retryPrompt?.kind ?? null}
        message={s.retryPrompt?.message ?? ''}
        onTryAgain={s.tryAgain}
        onCancel={s.cancel}
        onEnterCode={s.enterCode}
        returnFocus={() => shutter.current}
      />
    </div>
  );
}
