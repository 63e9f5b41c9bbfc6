import { texts } from '@giftlens/contract/texts';
import { useEffect } from 'react';
import { BrandMark } from '../../../components/ui/brand-mark.tsx';
import { usePwaState } from '../hooks/use-pwa-state.ts';
import { acceptInstall, dismissInstall, hideInstall } from '../pwa-store.ts';

export const INSTALL_PROMPT_VISIBLE_MS = 10_000;

/** Floating offer to add the app to the home screen: Later or Add; it hides itself after 10 s. */
export function InstallPrompt() {
  const { installPrompt } = usePwaState();

  useEffect(() => {
    if (!installPrompt) return;
    const timer = setTimeout(hideInstall, INSTALL_PROMPT_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [installPrompt]);

  if (!installPrompt) return null;
  return (
    // Worded as adding to the home screen: the hero promises "no app to install". On a phone the buttons sit on a
    // row of their own, so the words keep the width.
    <aside
      aria-label={texts.pwa.addToHomeScreen}
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-md flex-wrap items-center gap-x-3 gap-y-2 rounded-2xl border border-stone-200 bg-white p-3.5 shadow-xl shadow-stone-900/10 sm:bottom-5 sm:flex-nowrap"
    >
      <div className="flex min-w-0 flex-1 basis-full items-center gap-3 sm:basis-auto">
        <BrandMark className="size-11 shrink-0" />
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-stone-900">{texts.pwa.addToHomeScreen}</p>
          <p className="text-sm text-stone-600">{texts.pwa.addToHomeScreenNote}</p>
        </div>
      </div>
      <div className="ml-auto flex gap-2">
        <button
          type="button"
          onClick={dismissInstall}
          className="min-h-11 rounded-xl px-3 text-sm font-semibold text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {texts.pwa.later}
        </button>
        <button
          type="button"
          onClick={() => void acceptInstall()}
          className="min-h-11 rounded-xl bg-brand-500 px-4 text-sm font-semibold text-white hover:brightness-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {texts.pwa.addToHomeScreenAction}
        </button>
      </div>
    </aside>
  );
}
