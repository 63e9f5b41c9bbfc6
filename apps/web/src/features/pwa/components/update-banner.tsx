import { RefreshCw } from 'lucide-react';
import { applyUpdate } from '../pwa-store.ts';
import { usePwaState } from '../hooks/use-pwa-state.ts';

/** A new service worker is waiting: offer to switch to it (the page reloads once it takes control). */
export function UpdateBanner() {
  const { updateAvailable } = usePwaState();
  if (!updateAvailable) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2 bg-emerald-700 px-4 py-2.5 text-sm text-white"
    >
      <span className="font-medium">A new version of GiftLens is ready.</span>
      <button
        type="button"
        onClick={applyUpdate}
        className="inline-flex min-h-9 items-center gap-1.5 rounded-lg bg-white px-3 font-semibold text-emerald-800 hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        <RefreshCw aria-hidden className="size-4" />
        Update now
      </button>
    </div>
  );
}
