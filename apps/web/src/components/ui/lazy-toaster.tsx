import { lazy, Suspense, useEffect, useState } from 'react';
import { onFirstInteraction } from '../../lib/first-interaction.ts';

// sonner (~10 KB gzipped) loads on the first interaction, or at once on any page but the landing page.
// Toasts raised before it mounts are not lost: sonner replays active toasts to a new Toaster.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/**
 * Toasts sit at the top, below the 64 px sticky header (logo, navigation, the wizard's Back link): they cover
 * neither the header nor a screen's main button, which is lower down.
 */
const BELOW_HEADER = { top: 76 };

/** The app's toast outlet (sonner), loaded when it can first be needed. */
export function LazyToaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => onFirstInteraction(() => setWanted(true), window.location.pathname !== '/'), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster position="top-center" offset={BELOW_HEADER} mobileOffset={BELOW_HEADER} richColors closeButton />
    </Suspense>
  );
}
