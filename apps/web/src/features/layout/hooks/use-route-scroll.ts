import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { scrollToTop } from '../../../lib/scroll.ts';
import { revealSection } from '../scroll.ts';

const REPEAT_AFTER_MS = 100;
const MARKER_CLEAR_AFTER_MS = 150;

/**
 * Every route change starts at the top (sender-side §2). The reset is repeated after 100 ms because a lazily
 * loaded page can restore an older scroll position once it renders; `data-route-changing` on <html> marks the
 * transition for 150 ms so scroll listeners can ignore it. A link with a hash lands on that section instead: it is
 * revealed as soon as it exists and kept in place while the page settles (see revealSection), until the visitor
 * scrolls or the route changes again.
 * The first render is a page load, not a route change: the browser's own position stands (the top, or where a
 * reload left the visitor), so a visitor who starts scrolling at once is not pulled back up; only a hash is sought.
 */
export function useRouteScroll(): void {
  const { pathname, hash } = useLocation();
  const firstRender = useRef(true);
  useLayoutEffect(() => {
    const root = document.documentElement;
    const section = decodeURIComponent(hash.slice(1));
    if (firstRender.current) {
      firstRender.current = false;
      if (!section) return;
    }
    root.dataset.routeChanging = 'true';
    const clear = setTimeout(() => {
      delete root.dataset.routeChanging;
    }, MARKER_CLEAR_AFTER_MS);
    if (section) {
      // The new page starts at the top until its section is there.
      if (!document.getElementById(section)) scrollToTop();
      const release = revealSection(section, { smooth: false });
      return () => {
        release();
        clearTimeout(clear);
      };
    }
    scrollToTop();
    const again = setTimeout(scrollToTop, REPEAT_AFTER_MS);
    return () => {
      clearTimeout(again);
      clearTimeout(clear);
    };
  }, [pathname, hash]);
}
