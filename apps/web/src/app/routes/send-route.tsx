import { findPlan } from '@giftlens/contract/plans';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { GiftSummary } from '@giftlens/contract/sender';
import { usePriceRegion } from '../../features/country/use-price-region.ts';
import { EmailStep } from '../../features/sender-auth/components/email-step.tsx';
import { VerificationStep } from '../../features/sender-auth/components/verification-step.tsx';
import { SendWizard } from '../../features/sender-wizard/components/send-wizard.tsx';
import { onFirstInteraction } from '../../lib/first-interaction.ts';
import { lazyPart } from '../../lib/lazy-part.ts';
import { paths, PLAN_PARAM, RESUME_GIFT_PARAM } from '../../config/paths.ts';

// The message step (recorder, upload queue) is the wizard's last: it loads on the first interaction, or when the
// wizard resumes there (decision 046).
const { Part: MessageStep, preload: preloadMessageStep } = lazyPart(() =>
  import('../../features/message-upload/components/message-step.tsx').then((m) => m.MessageStep),
);

/**
 * /send: the sender wizard, with the visitor's country, the sign-in steps (sender-auth) and the message step
 * plugged in from their features. /send?gift={giftId} carries on with that existing gift (My Gifts' Continue).
 */
export function SendRoute() {
  const navigate = useNavigate();
  const prices = usePriceRegion();
  const [search] = useSearchParams();
  const resumeGiftId = search.get(RESUME_GIFT_PARAM) ?? undefined;
  // The plan chosen on /pricing (issue 37: it was lost at the plan step): preselected there, in its own price list.
  const carried = findPlan(search.get(PLAN_PARAM) ?? '');
  const carriedPlan = carried ? { id: carried.id, name: carried.name } : undefined;
  const regionSet = useRef(false);
  const { region, choose } = prices;
  useEffect(() => {
    if (!carried || regionSet.current || region === undefined) return;
    regionSet.current = true;
    if (region !== carried.region) choose(carried.region);
  }, [carried, region, choose]);
  useEffect(() => onFirstInteraction(preloadMessageStep), []);

  const onResumed = useCallback(
    (gift: GiftSummary | null) => {
      // A draft now shows its message step here; a gift past that step goes where it stopped.
      if (gift?.status === 'message_uploaded') void navigate(paths.checkout.href(gift.giftId), { replace: true });
      else if (gift?.status === 'active') void navigate(paths.share.href(gift.giftId), { replace: true });
      else void navigate(paths.send.href(), { replace: true });
    },
    [navigate],
  );

  return (
    <SendWizard
      region={prices.region}
      onRegionChange={prices.choose}
      resumeGiftId={resumeGiftId}
      onResumed={onResumed}
      carriedPlan={carriedPlan}
      emailStep={EmailStep}
      verificationStep={VerificationStep}
      renderMessageStep={({ giftId, planId, planName }) => (
        <MessageStep
          giftId={giftId}
          planId={planId}
          planName={planName}
          onContinue={(id) => void navigate(paths.checkout.href(id))}
        />
      )}
    />
  );
}
