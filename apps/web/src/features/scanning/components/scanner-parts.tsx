import { Check, Loader2 } from 'lucide-react';
import type { ScanPhase } from '../hooks/use-scanner.ts';

const PHASES: { phase: ScanPhase; label: string }[] = [
  { phase: 'capturing', label: 'Taking the photo' },
  { phase: 'matching', label: 'Matching your gift' },
];

// A sweeping line inside the viewfinder; kept here so the scanner carries its own motion.
export const SCAN_KEYFRAMES = '@keyframes giftlens-scan-sweep{0%{top:6%}50%{top:90%}100%{top:6%}}';

/** The square the gift is held in: corners, the sweeping line while looking, a spinner or a tick. */
export function Viewfinder({ animating, status }: { animating: boolean; status: 'ready' | 'scanning' | 'success' | 'failed' }) {
  const scanning = status === 'scanning';
  return (
    <div
      className={`relative aspect-square w-[min(80vw,52dvh,26rem)] transition-transform duration-500 ${animating ? 'scale-100' : 'scale-95'}`}
    >
      <Corners active={animating} success={status === 'success'} failed={status === 'failed'} />
      {animating && (status === 'ready' || scanning) ? (
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
      {status === 'success' ? (
        <span className="absolute inset-0 flex items-center justify-center" aria-hidden>
          <span className="flex size-20 items-center justify-center rounded-full bg-emerald-500">
            <Check className="size-10" />
          </span>
        </span>
      ) : null}
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

/** Step n of 2 while a capture is processed: taking the photo (drawn and encoded at once), matching. */
export function ScanProgress({ phase }: { phase: ScanPhase }) {
  const phaseIndex = PHASES.findIndex((p) => p.phase === phase);
  return (
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
  );
}
