import { lazy, Suspense, useEffect, useState } from 'react';
import { onFirstInteraction } from '../../lib/first-interaction.ts';

// sonner (~10 KB gzipped) loads on the first interaction, or at once on any page but the landing page.
// Toasts raised before it mounts are not lost: sonner replays active toasts to a new Toaster.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** The app's toast outlet (sonner), loaded when it can first be needed. */
export function LazyToaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => onFirstInteraction(() => setWanted(true), window.location.pathname !== '/'), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster position="top-center" richColors closeButton />
    </Suspense>
  );
}
