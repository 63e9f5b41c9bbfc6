import { lazy, Suspense } from 'react';

// sonner is ~10 KB gzipped: it loads right after the first paint instead of delaying it.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** The app's toast outlet (sonner), loaded on demand. */
export function LazyToaster() {
  return (
    <Suspense fallback={null}>
      <Toaster position="top-center" richColors closeButton />
    </Suspense>
  );
}
