import { useEffect, useRef, type RefObject } from 'react';

/** How long a new screen may take to render its heading (a step that loads first shows a spinner). */
const HEADING_WAIT_MS = 3_000;

/**
 * When `key` changes (a new wizard step) or, with `onMount`, when the screen first renders, moves focus to the
 * first heading inside `container`, so a keyboard or screen-reader user starts at the top of what is new instead
 * of on <body>. Only when focus was lost: a control the new screen focused itself (autoFocus) keeps it.
 */
export function useFocusHeading(container: RefObject<HTMLElement | null>, key: unknown, { onMount = false } = {}) {
  const first = useRef(true);
  useEffect(() => {
    const skip = first.current && !onMount;
    first.current = false;
    if (skip) return;
    const started = performance.now();
    let frame = 0;
    const attempt = () => {
      if (!focusLost()) return;
      const heading = container.current?.querySelector<HTMLElement>('h1') ?? container.current?.querySelector<HTMLElement>('h2');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
        // A heading that cannot take focus yet is the old screen's, hidden while the new one loads (Suspense
        // keeps it in the page with display: none): look again on the next frame.
        if (!focusLost()) return;
      }
      if (performance.now() - started < HEADING_WAIT_MS) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [container, key, onMount]);
}

/**
 * Focuses `target` when `when` becomes true and focus was lost (the control pressed was replaced or disabled).
 * `again` (a count of the actions done) asks once more with `when` still true: a second save, like the first.
 */
export function useFocusWhenLost(target: RefObject<HTMLElement | null>, when: boolean, again: unknown = null) {
  useEffect(() => {
    if (when && focusLost()) target.current?.focus();
  }, [target, when, again]);
}

/**
 * Focus is on nothing a user can see: <body>, or a control of the screen being replaced, which Suspense keeps in the
 * page hidden (display: none, so it has no boxes) until the new screen's code has loaded.
 */
function focusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.getClientRects().length === 0;
}
