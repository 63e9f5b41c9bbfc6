import { Suspense, useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { PageSpinner } from '../components/ui/page-spinner.tsx';
import { NavBar } from '../features/layout/components/nav-bar.tsx';
import { SiteFooter } from '../features/layout/components/site-footer.tsx';
import { useRouteScroll } from '../features/layout/hooks/use-route-scroll.ts';
import { InstallPrompt } from '../features/pwa/components/install-prompt.tsx';
import { OfflineBanner } from '../features/pwa/components/offline-banner.tsx';
import { UpdateBanner } from '../features/pwa/components/update-banner.tsx';
import { startPwa } from '../features/pwa/pwa-store.ts';
import { onFirstInteraction } from '../lib/first-interaction.ts';
import { DeferredQueryProvider, preloadQueryProvider } from './deferred-query-provider.tsx';

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
  useEffect(startPwa, []);
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
      <UpdateBanner />
      {fullScreen ? null : <NavBar />}
      <main id="main" className="flex-1">
        <Suspense fallback={<PageSpinner />}>
          <DeferredQueryProvider needed={!noServerData}>
            <Outlet />
          </DeferredQueryProvider>
        </Suspense>
      </main>
      {fullScreen ? null : <SiteFooter />}
      <InstallPrompt />
    </div>
  );
}
