const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'wheel'] as const;

/**
 * The first interaction is watched once, from the moment this module loads (with the app's entry, before the
 * prerendered page hydrates), and what waits for it runs then. A part that asks after it runs at once: before, each
 * part listened from when it first asked, so one that first asked during hydration waited for an interaction that
 * had already happened (a tap on a link while the landing page hydrated changed the URL but left the landing on
 * screen: the navigation waited for the footer, whose code waited for a second interaction).
 */
let interactedYet = false;
const waiting = new Set<() => void>();
if (typeof window !== 'undefined') {
  const seen = () => {
    interactedYet = true;
    for (const e of EVENTS) window.removeEventListener(e, seen, { capture: true });
    for (const run of [...waiting]) run();
    waiting.clear();
  };
  for (const e of EVENTS) window.addEventListener(e, seen, { capture: true, passive: true });
}

/**
 * Runs `callback` once, on the visitor's first interaction with the page (at once when there has been one, or when
 * `now` is true); the answer stops waiting. Code that no screen needs for its first paint — the toast outlet, the
 * data layer — loads from here, so the landing page ships only what it shows.
 */
export function onFirstInteraction(callback: () => void, now = false): () => void {
  if (now || interactedYet) {
    callback();
    return () => {};
  }
  // Its own entry, so the same function asked for twice runs twice, as asked.
  const run = () => callback();
  waiting.add(run);
  return () => void waiting.delete(run);
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
