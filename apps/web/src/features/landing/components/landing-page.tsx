import { ExploreSection } from './explore-section.tsx';
import { FaqSection } from './faq-section.tsx';
import { Hero } from './hero.tsx';
import { HowItWorksSection } from './how-it-works-section.tsx';
import { StatsSection } from './stats-section.tsx';
import { TrustBadges } from './trust-badges.tsx';

/** The landing page `/` (recipient-side §2). `howItWorksId` is the anchor the navigation bar scrolls to. */
export function LandingPage({ howItWorksId }: { howItWorksId: string }) {
  return (
    <>
      <Hero />
      <TrustBadges />
      <HowItWorksSection id={howItWorksId} />
      <StatsSection />
      <FaqSection />
      <ExploreSection />
    </>
  );
}
