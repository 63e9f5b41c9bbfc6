import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { onFirstInteraction } from '../../lib/first-interaction.ts';
import { onToastWanted } from '../../lib/toast.ts';

// sonner (~9 KB gzipped) loads on the first interaction, or as soon as a toast is raised (lib/toast.ts), on every
// page (decision 046). Toasts raised before it mounts are not lost: sonner replays active toasts to a new Toaster.
const Toaster = lazy(() => import('./toaster-outlet.ts').then((m) => ({ default: m.Toaster })));

/** sonner's own breakpoint: below it a toast spans the screen's width. */
const NARROW = '(max-width: 599px)';
const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isNarrow = () => window.matchMedia(NARROW).matches;

/**
 * Where a toast covers nothing one needs. On a desktop: top right, below the 64 px sticky header, beside the
 * centred content (the header's links and the wizard's Back link stay free). On a phone the top holds the header
 * and the wizard's Back link, so toasts rise from the bottom edge instead.
 */
const DESKTOP_OFFSET = { top: 76, right: 16 };
const PHONE_OFFSET = { bottom: 16, left: 12, right: 12 };

/** The app's toast outlet (sonner), loaded when it can first be needed. */
export function LazyToaster() {
  const [wanted, setWanted] = useState(false);
  const narrow = useSyncExternalStore(subscribe, isNarrow, () => false);
  useEffect(() => {
    const want = () => setWanted(true);
    const stopInteraction = onFirstInteraction(want);
    const stopToast = onToastWanted(want);
    return () => {
      stopInteraction();
      stopToast();
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position={narrow ? 'bottom-center' : 'top-right'}
        offset={DESKTOP_OFFSET}
        mobileOffset={PHONE_OFFSET}
        richColors
        closeButton
      />
    </Suspense>
  );
}
