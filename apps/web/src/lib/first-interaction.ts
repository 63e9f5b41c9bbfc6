const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'wheel'] as const;

/**
 * Runs `callback` once, on the visitor's first interaction with the page (or at once when `now` is true).
 * Code that no screen needs for its first paint — the toast outlet, the data layer — loads from here, so the
 * landing page ships only what it shows.
 */
export function onFirstInteraction(callback: () => void, now = false): () => void {
  if (now) {
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
