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

/**
 * What a route may say about the shell around it, through its `handle`:
 * `{ fullScreen: true }` drops the navigation bar and footer (camera screens).
 */
export interface RouteHandle {
  fullScreen?: boolean;
}

function useFullScreen(): boolean {
  return useMatches().some((m) => (m.handle as RouteHandle | undefined)?.fullScreen === true);
}

/** Shell around every screen: banners, navigation, footer, the install prompt and the scroll reset. */
export function RootLayout() {
  useRouteScroll();
  const fullScreen = useFullScreen();
  useEffect(startPwa, []);

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
          <Outlet />
        </Suspense>
      </main>
      {fullScreen ? null : <SiteFooter />}
      <InstallPrompt />
    </div>
  );
}
