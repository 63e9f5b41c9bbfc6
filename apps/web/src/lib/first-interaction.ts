const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'wheel'] as const;

/**
 * Whether the visitor has interacted yet, watched from the moment this module loads (with the app's entry, before
 * the prerendered page hydrates). Without it, a part that first asked during hydration waited for an interaction
 * that had already happened: a tap on a link while the landing page was hydrating changed the URL but left the
 * landing on screen (the navigation waited for the footer, whose code waited for a second interaction).
 */
let interactedYet = false;
if (typeof window !== 'undefined') {
  const seen = () => {
    interactedYet = true;
    for (const e of EVENTS) window.removeEventListener(e, seen, { capture: true });
  };
  for (const e of EVENTS) window.addEventListener(e, seen, { capture: true, passive: true });
}

/**
 * Runs `callback` once, on the visitor's first interaction with the page (at once when there has been one, or when
 * `now` is true). Code that no screen needs for its first paint — the toast outlet, the data layer — loads from
 * here, so the landing page ships only what it shows.
 */
export function onFirstInteraction(callback: () => void, now = false): () => void {
  if (now || interactedYet) {
    callback();
    return () => {};
  }
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cleanup();
    callback();
  };
  const cleanup = () => {
    for (const e of EVENTS) window.removeEventListener(e, run, { capture: true });
  };
  for (const e of EVENTS) window.addEventListener(e, run, { capture: true, passive: true });
  return cleanup;
}

let interacted: Promise<void> | undefined;

/**
 * Resolves on the first interaction — at once outside the browser (build-time prerendering) and on any page
 * but the landing page, whose first load is the one kept lean.
 */
export function firstInteraction(): Promise<void> {
  if (typeof window === 'undefined') return Promise.resolve();
  interacted ??= new Promise((resolve) => onFirstInteraction(resolve, window.location.pathname !== '/'));
  return interacted;
}
