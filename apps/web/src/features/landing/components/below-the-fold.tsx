import { ExploreSection } from './explore-section.tsx';
import { FaqSection } from './faq-section.tsx';
import { HowItWorksSection } from './how-it-works-section.tsx';
import { StatsSection } from './stats-section.tsx';

/** Everything under the hero and trust badges; its code loads after the first interaction. */
export function BelowTheFold({ howItWorksId }: { howItWorksId: string }) {
  return (
    <>
      <HowItWorksSection id={howItWorksId} />
      <StatsSection />
      <FaqSection />
      <ExploreSection />
    </>
  );
}
