import { Camera, Loader2 } from 'lucide-react';
import type { Ref } from 'react';

/**
 * The camera screen's Take Photo button, in the scanner's look (`labelled`: a ring with the label under it) or
 * the demo's (`round`: a plain ring that spins while the photo is being matched, the label for screen readers).
 */
export function ShutterButton({
  look,
  onPress,
  disabled,
  busy = false,
  ref,
}: {
  ref?: Ref<HTMLButtonElement>;
  look: 'labelled' | 'round';
  onPress: () => void;
  disabled: boolean;
  busy?: boolean;
}) {
  if (look === 'round') {
    return (
      <button
        ref={ref}
        type="button"
        onClick={onPress}
        disabled={disabled}
        className="flex size-20 items-center justify-center rounded-full border-4 border-white bg-white/20 transition enabled:hover:bg-white/30 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-white"
      >
        {busy ? <Loader2 aria-hidden className="size-8 animate-spin" /> : <Camera aria-hidden className="size-8" />}
        <span className="sr-only">Take Photo</span>
      </button>
    );
  }
  return (
    <button
      ref={ref}
      type="button"
      onClick={onPress}
      disabled={disabled}
      className="group flex flex-col items-center gap-1.5 rounded-2xl p-1 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-50"
    >
      <span className="flex size-18 items-center justify-center rounded-full border-4 border-white/90 bg-white/15 transition group-enabled:group-hover:bg-white/25 group-enabled:group-active:scale-95">
        <span className="flex size-13 items-center justify-center rounded-full bg-brand-500 shadow-lg">
          <Camera className="size-6" aria-hidden />
        </span>
      </span>
      Take Photo
    </button>
  );
}
