import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { scrollToTop } from '../../../lib/scroll.ts';
import { revealSection } from '../scroll.ts';

/**
 * Every route change starts at the top, Back and Forward included. The browser is told not to
 * restore positions itself while the app runs (`history.scrollRestoration = 'manual'`), so nothing can pull a
 * page back down after it renders, and one reset is enough: no timers. A link with a hash lands on that section
 * instead: it is revealed as soon as it exists and kept in place while the page settles (see revealSection), until
 * the visitor scrolls or the route changes again.
 * The first render is a page load, not a route change: the browser's own position stands (the top, or where a
 * reload left the visitor), so a visitor who starts scrolling at once is not pulled back up; only a hash is sought.
 * Why not React Router's <ScrollRestoration>: decision 018.
 */
export function useRouteScroll(): void {
  const { pathname, hash } = useLocation();
  const firstRender = useRef(true);

  useEffect(() => {
    const manual = () => (window.history.scrollRestoration = 'manual');
    // Leaving or reloading the page: the browser's own restoration again, so a reload keeps the visitor's place.
    const auto = () => (window.history.scrollRestoration = 'auto');
    manual();
    window.addEventListener('pageshow', manual);
    window.addEventListener('pagehide', auto);
    return () => {
      auto();
      window.removeEventListener('pageshow', manual);
      window.removeEventListener('pagehide', auto);
    };
  }, []);

  useLayoutEffect(() => {
    const section = decodeURIComponent(hash.slice(1));
    if (firstRender.current) {
      firstRender.current = false;
      if (!section) return;
    }
    if (!section) {
      scrollToTop();
      return;
    }
    // The new page starts at the top until its section is there.
    if (!document.getElementById(section)) scrollToTop();
    return revealSection(section, { smooth: false });
  }, [pathname, hash]);
}
