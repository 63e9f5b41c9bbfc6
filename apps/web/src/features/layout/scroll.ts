export const HOW_IT_WORKS_ID = 'how-it-works';

/** What the visitor does to take over the scrolling: from then on, nothing pulls the page back to the section. */
const TAKE_OVER = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** The section sits where `scrollIntoView` puts it (below the sticky header), or the page cannot scroll further. */
function inPlace(el: HTMLElement): boolean {
  const margin = Number.parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
  return Math.abs(el.getBoundingClientRect().top - margin) <= 1 || (atEnd && el.getBoundingClientRect().top > margin);
}

/** The one reveal in progress: a new one (or a route change) ends it. */
let active: (() => void) | null = null;

/**
 * Brings the section with this `id` to the top of the window and keeps it there until the page has settled, driven
 * by what happens on the page rather than by timers:
 * - a section that is not there yet (a page loaded on demand, the landing page's lower half that hydrates after the
 *   first interaction) is waited for, and revealed the moment it is added;
 * - whenever the page's height changes (content above it arriving), or a glide ends short of it (cut off by
 *   hydration), it is put back in place at once;
 * - as soon as the visitor scrolls, touches, clicks or types, it lets go.
 * `smooth` glides (unless the visitor asked for less motion). Returns the function that lets go.
 */
export function revealSection(id: string, { smooth }: { smooth: boolean }): () => void {
  active?.();
  const cleanups: (() => void)[] = [];
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups) cleanup();
    if (active === stop) active = null;
  };
  active = stop;

  for (const type of TAKE_OVER) {
    window.addEventListener(type, stop, { capture: true, passive: true });
    cleanups.push(() => window.removeEventListener(type, stop, { capture: true }));
  }

  /** Puts the section in place if it is not; false while it does not exist. */
  const settle = (behavior: ScrollBehavior): boolean => {
    const el = document.getElementById(id);
    if (!el) return false;
    if (!inPlace(el)) el.scrollIntoView({ behavior, block: 'start' });
    return true;
  };

  const keepInPlace = () => {
    // Content above the section changes the page's height: back in place at once.
    let height = document.body.getBoundingClientRect().height;
    const resize = new ResizeObserver(() => {
      const now = document.body.getBoundingClientRect().height;
      if (now === height) return;
      height = now;
      settle('auto');
    });
    resize.observe(document.body);
    cleanups.push(() => resize.disconnect());
    // A glide that ended short of the section (cut off while the page hydrated) is finished at once.
    const ended = () => settle('auto');
    window.addEventListener('scrollend', ended);
    cleanups.push(() => window.removeEventListener('scrollend', ended));
  };

  const behavior: ScrollBehavior = smooth && !prefersReducedMotion() ? 'smooth' : 'auto';
  if (settle(behavior)) {
    keepInPlace();
  } else {
    const appeared = new MutationObserver(() => {
      if (!settle('auto')) return;
      appeared.disconnect();
      keepInPlace();
    });
    appeared.observe(document.body, { childList: true, subtree: true });
    cleanups.push(() => appeared.disconnect());
  }
  return stop;
}
