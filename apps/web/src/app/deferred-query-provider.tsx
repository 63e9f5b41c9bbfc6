import { lazy, type ReactNode } from 'react';

let loading: Promise<typeof import('./query-provider.tsx')> | undefined;

/** Starts loading the data layer (TanStack Query, ~8 KB gzipped) without rendering anything. */
export function preloadQueryProvider(): void {
  loading ??= import('./query-provider.tsx');
}

const LazyQueryProvider = lazy(async () => {
  preloadQueryProvider();
  return { default: (await loading!).QueryProvider };
});

/**
 * Wraps screens that use the API in the query client. Screens that declare they need no server data
 * (the landing page, through its route handle) render without it, so `/` does not download it; the enclosing
 * Suspense boundary shows the page spinner while it loads for the others.
 */
export function DeferredQueryProvider({ needed, children }: { needed: boolean; children: ReactNode }) {
  return needed ? <LazyQueryProvider>{children}</LazyQueryProvider> : children;
}
