import { lazy, type ComponentType } from 'react';
import { firstInteraction } from './first-interaction.ts';

/**
 * React.lazy whose code is fetched only after the first interaction. On the prerendered landing page the
 * server HTML of such a component stays in place (React keeps a dehydrated Suspense boundary) until then;
 * a click that arrives before it is replayed by React once the part has hydrated.
 */
export function lazyAfterInteraction<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    await firstInteraction();
    return { default: await load() };
  });
}
