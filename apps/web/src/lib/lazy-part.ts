import { lazy, type ComponentType } from 'react';

/**
 * A part of a screen that shows only after the visitor does something (the code step after the e-mail, a
 * confirmation dialog, a form behind a toggle): React.lazy over `load`, so the route does not load it before the
 * first interaction (decision 046), and `preload`, which the screen calls on the first interaction so the part is
 * usually in by the time it is wanted.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  return {
    Part: lazy(() => load().then((component) => ({ default: component }))),
    preload: () => {
      load().catch(() => {
        // Loaded again when the part renders, which shows the route's error screen if it still fails.
      });
    },
  };
}
