import { useEffect } from 'react';
import { BrandMark } from '../../../components/ui/brand-mark.tsx';
import { usePwaState } from '../hooks/use-pwa-state.ts';
import { acceptInstall, dismissInstall, hideInstall } from '../pwa-store.ts';

export const INSTALL_PROMPT_VISIBLE_MS = 10_000;

/** Floating offer to install the app (recipient-side §2): Later or Install; it hides itself after 10 s. */
export function InstallPrompt() {
  const { installPrompt } = usePwaState();

  useEffect(() => {
    if (!installPrompt) return;
    const timer = setTimeout(hideInstall, INSTALL_PROMPT_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [installPrompt]);

  if (!installPrompt) return null;
  return (
    <aside
      aria-label="Install GiftLens"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-md items-center gap-3 rounded-2xl border border-stone-200 bg-white p-3.5 shadow-xl shadow-stone-900/10 sm:bottom-5"
    >
      <BrandMark className="size-11 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-stone-900">Install GiftLens</p>
        <p className="text-sm text-stone-600">Scan gifts faster from your home screen.</p>
      </div>
      <button
        type="button"
        onClick={dismissInstall}
        className="min-h-11 rounded-xl px-3 text-sm font-semibold text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        Later
      </button>
      <button
        type="button"
        onClick={() => void acceptInstall()}
        className="min-h-11 rounded-xl bg-brand-500 px-4 text-sm font-semibold text-white hover:brightness-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        Install
      </button>
    </aside>
  );
}
