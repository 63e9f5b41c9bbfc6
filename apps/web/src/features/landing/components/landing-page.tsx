import { Suspense } from 'react';
import { lazyAfterInteraction } from '../../../lib/lazy-after-interaction.ts';
import { Hero } from './hero.tsx';
import { TrustBadges } from './trust-badges.tsx';

const BelowTheFold = lazyAfterInteraction(() => import('./below-the-fold.tsx').then((m) => m.BelowTheFold));

/**
 * The landing page `/`. `howItWorksId` is the anchor the navigation bar scrolls to; `fromPrice` the lowest price of
 * the price list the visitor chose (the app layer's).
 * The page is prerendered; what is below the first screen hydrates once the visitor interacts.
 */
export function LandingPage({ howItWorksId, fromPrice }: { howItWorksId: string; fromPrice: string }) {
  return (
    <>
      <Hero fromPrice={fromPrice} />
      <TrustBadges />
      <Suspense fallback={<div className="min-h-screen" />}>
        <BelowTheFold howItWorksId={howItWorksId} />
      </Suspense>
    </>
  );
}
