import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { PageSpinner } from '../components/ui/page-spinner.tsx';
import { NavBar } from '../features/layout/components/nav-bar.tsx';
import { useRouteScroll } from '../features/layout/hooks/use-route-scroll.ts';
import { OfflineBanner } from '../features/pwa/components/offline-banner.tsx';
import { usePwaState } from '../features/pwa/hooks/use-pwa-state.ts';
import { startPwa } from '../features/pwa/pwa-store.ts';
import { onFirstInteraction } from '../lib/first-interaction.ts';
import { lazyAfterInteraction } from '../lib/lazy-after-interaction.ts';
import { DeferredQueryProvider, preloadQueryProvider } from './deferred-query-provider.tsx';

// The footer is only links: on the prerendered landing page its HTML works before its code arrives.
const SiteFooter = lazyAfterInteraction(() =>
  import('../features/layout/components/site-footer.tsx').then((m) => m.SiteFooter),
);

// Shown only when the browser offers installation or a new version waits: loaded then.
const InstallPrompt = lazy(() =>
  import('../features/pwa/components/install-prompt.tsx').then((m) => ({ default: m.InstallPrompt })),
);
const UpdateBanner = lazy(() =>
  import('../features/pwa/components/update-banner.tsx').then((m) => ({ default: m.UpdateBanner })),
);

/** What a route may say about the shell around it, through its `handle`. */
export interface RouteHandle {
  /** Drop the navigation bar and footer (camera screens). */
  fullScreen?: boolean;
  /** The screen never calls the API, so it renders without the query client (the landing page). */
  noServerData?: boolean;
}

function useRouteHandle(): Required<RouteHandle> {
  const handles = useMatches().map((m) => (m.handle ?? {}) as RouteHandle);
  return {
    fullScreen: handles.some((h) => h.fullScreen === true),
    noServerData: handles.at(-1)?.noServerData === true,
  };
}

/** Shell around every screen: banners, navigation, footer, the install prompt and the scroll reset. */
export function RootLayout() {
  useRouteScroll();
  const { fullScreen, noServerData } = useRouteHandle();
  const { installPrompt, updateAvailable } = usePwaState();
  useEffect(startPwa, []);
  // Marks the moment the (possibly prerendered) shell is live and interactive; tests wait for it.
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
  // The next screen will most likely need the data layer: fetch it as soon as the visitor engages.
  useEffect(() => onFirstInteraction(preloadQueryProvider), []);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-stone-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <OfflineBanner />
      {updateAvailable ? (
        <Suspense fallback={null}>
          <UpdateBanner />
        </Suspense>
      ) : null}
      {fullScreen ? null : <NavBar />}
      <main id="main" className="flex-1">
        <Suspense fallback={<PageSpinner />}>
          <DeferredQueryProvider needed={!noServerData}>
            <Outlet />
          </DeferredQueryProvider>
        </Suspense>
      </main>
      {fullScreen ? null : (
        <Suspense fallback={null}>
          <SiteFooter />
        </Suspense>
      )}
      {installPrompt ? (
        <Suspense fallback={null}>
          <InstallPrompt />
        </Suspense>
      ) : null}
    </div>
  );
}
