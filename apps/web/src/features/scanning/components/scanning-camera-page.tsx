import { CameraHint } from '../../../components/ui/camera-hint.tsx';
import { MAX_SCAN_ATTEMPTS } from '@giftlens/contract/constants';
import { Camera, Check, Loader2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { RECIPIENT_KEYS, readString, writeString } from '../../../lib/recipient-storage.ts';
import { useScanner, type ScanFlow, type ScanPhase } from '../hooks/use-scanner.ts';
import { RetryDialog } from './retry-dialog.tsx';

const PHASES: { phase: ScanPhase; label: string }[] = [
  { phase: 'capturing', label: 'Taking the photo' },
  { phase: 'preparing', label: 'Preparing the photo' },
  { phase: 'matching', label: 'Matching your gift' },
];

// A sweeping line inside the viewfinder; kept here so the scanner carries its own motion.
const SCAN_KEYFRAMES = '@keyframes giftlens-scan-sweep{0%{top:6%}50%{top:90%}100%{top:6%}}';

/**
 * /scanning-camera/{id}?type=direct|home — `type=direct` scans for the gift `id` (from a gift link); any other
 * type is the recipient flow, where `id` is the recipient id and the server matches among their gifts.
 */
export function ScanningCameraPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const type = params.get('type');
  const flow: ScanFlow = type === 'direct' ? 'direct' : 'recipient';
  const [storedRecipientId] = useState(() => readString('session', RECIPIENT_KEYS.recipientId));
  const scanId = flow === 'direct' ? id : id || storedRecipientId || '';

  useEffect(() => {
    writeString('session', RECIPIENT_KEYS.scanType, type ?? 'home');
    if (flow === 'recipient' && id) writeString('session', RECIPIENT_KEYS.recipientId, id);
  }, [flow, id, type]);

  if (!scanId) {
    if (flow === 'direct' || !storedRecipientId) return <Navigate to={paths.scan.href()} replace />;
    return <Navigate to={paths.scanningInstructions.href(storedRecipientId)} replace />;
  }
  return <ScannerScreen key={`${flow}:${scanId}`} flow={flow} scanId={scanId} />;
}

function ScannerScreen({ flow, scanId }: { flow: ScanFlow; scanId: string }) {
  const { attachVideo, ...s } = useScanner({ flow, scanId });
  const scanning = s.status === 'scanning';
  const autoCapturing = s.status === 'ready' && s.processingEnabled && !s.retryPrompt;

  let statusText: string;
  if (s.camera.status === 'starting') statusText = 'Starting your camera…';
  else if (s.camera.status === 'error') statusText = s.camera.message;
  else if (s.status === 'scanning') statusText = 'Scanning your gift…';
  else if (s.status === 'success') statusText = 'Gift found! Opening your message…';
  else if (s.status === 'failed') statusText = s.error ?? 'That did not work.';
  else if (!s.processingEnabled) statusText = 'Get ready…';
  else statusText = 'Hold your gift inside the frame';

  const phaseIndex = s.phase ? PHASES.findIndex((p) => p.phase === s.phase) : -1;

  return (
    <div className="fixed inset-0 z-30 flex flex-col overflow-hidden bg-stone-950 text-white">
      <style>{SCAN_KEYFRAMES}</style>
      <video
        ref={attachVideo}
        muted
        playsInline
        autoPlay
        aria-hidden
        className="absolute inset-0 h-full w-full object-cover"
      />
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

      <div className="relative flex flex-1 items-center justify-center px-6">
        <div
          className={`relative aspect-square w-[min(80vw,52dvh,26rem)] transition-transform duration-500 ${s.animating ? 'scale-100' : 'scale-95'}`}
        >
          <Corners active={s.animating} success={s.status === 'success'} failed={s.status === 'failed'} />
          {s.animating && (s.status === 'ready' || scanning) ? (
            <span
              aria-hidden
              className="absolute inset-x-[6%] h-0.5 rounded-full bg-brand-500 shadow-[0_0_16px_4px_rgba(240,83,45,0.7)] motion-reduce:hidden"
              style={{ animation: `giftlens-scan-sweep ${scanning ? '1.1s' : '2.4s'} ease-in-out infinite` }}
            />
          ) : null}
          {scanning ? (
            <span className="absolute inset-0 flex items-center justify-center" aria-hidden>
              <Loader2 className="size-14 animate-spin text-white drop-shadow" />
            </span>
          ) : null}
          {s.status === 'success' ? (
            <span className="absolute inset-0 flex items-center justify-center" aria-hidden>
              <span className="flex size-20 items-center justify-center rounded-full bg-emerald-500">
                <Check className="size-10" />
              </span>
            </span>
          ) : null}
        </div>
      </div>

      <footer className="relative flex flex-col items-center gap-4 px-4 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
        <div role="status" aria-live="polite" className="flex min-h-16 flex-col items-center gap-2 text-center">
          <CameraHint>{statusText}</CameraHint>
          {scanning && phaseIndex >= 0 ? (
            <div className="flex flex-col items-center gap-1.5">
              <div
                role="progressbar"
                aria-label="Scan progress"
                aria-valuemin={1}
                aria-valuemax={PHASES.length}
                aria-valuenow={phaseIndex + 1}
                aria-valuetext={PHASES[phaseIndex]?.label}
                className="flex gap-1.5"
              >
                {PHASES.map((p, i) => (
                  <span
                    key={p.phase}
                    className={`h-1.5 w-10 rounded-full ${i < phaseIndex ? 'bg-brand-500' : i === phaseIndex ? 'animate-pulse bg-brand-500' : 'bg-white/30'}`}
                  />
                ))}
              </div>
              <p className="text-xs text-white/80">
                Step {phaseIndex + 1} of {PHASES.length}: {PHASES[phaseIndex]?.label}
              </p>
            </div>
          ) : autoCapturing ? (
            <p className="text-xs text-white/80">Capturing automatically — or tap Take Photo</p>
          ) : null}
        </div>

        <button
          type="button"
          onClick={s.takePhoto}
          disabled={!s.canTakePhoto}
          className="group flex flex-col items-center gap-1.5 rounded-2xl p-1 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-50"
        >
          <span className="flex size-18 items-center justify-center rounded-full border-4 border-white/90 bg-white/15 transition group-enabled:group-hover:bg-white/25 group-enabled:group-active:scale-95">
            <span className="flex size-13 items-center justify-center rounded-full bg-brand-500 shadow-lg">
              <Camera className="size-6" aria-hidden />
            </span>
          </span>
          Take Photo
        </button>
      </footer>

      <RetryDialog
        kind={s.retryPrompt?.kind ?? null}
        message={s.retryPrompt?.message ?? ''}
        onTryAgain={s.tryAgain}
        onCancel={s.cancel}
      />
    </div>
  );
}

function Corners({ active, success, failed }: { active: boolean; success: boolean; failed: boolean }) {
  const color = success ? 'border-emerald-400' : failed ? 'border-red-400' : active ? 'border-brand-500' : 'border-white/80';
  const base = `absolute size-12 border-[5px] transition-colors duration-300 ${color}`;
  return (
    <>
      <span aria-hidden className={`${base} top-0 left-0 rounded-tl-3xl border-r-0 border-b-0`} />
      <span aria-hidden className={`${base} top-0 right-0 rounded-tr-3xl border-b-0 border-l-0`} />
      <span aria-hidden className={`${base} bottom-0 left-0 rounded-bl-3xl border-t-0 border-r-0`} />
      <span aria-hidden className={`${base} right-0 bottom-0 rounded-br-3xl border-t-0 border-l-0`} />
    </>
  );
}
