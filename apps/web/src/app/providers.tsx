import type { ReactNode } from 'react';
import { LazyToaster } from '../components/ui/lazy-toaster.tsx';

/**
 * App-wide providers. The TanStack Query client is provided around the routed screens by the root layout
 * (deferred-query-provider.tsx), so the landing page's first load does not include it.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <LazyToaster />
    </>
  );
}
