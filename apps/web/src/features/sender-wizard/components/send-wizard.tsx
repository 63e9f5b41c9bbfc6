import type { PlanId, Region } from '@giftlens/contract/plans';
import type { GiftSummary } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { ArrowLeft } from 'lucide-react';
import { Suspense, useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { useFocusHeading } from '../../../lib/use-focus.ts';
import { discardReplacedDraft } from '../api/discard-draft.ts';
import { useSendWizard } from '../hooks/use-send-wizard.ts';
import type { WizardStep } from '../hooks/use-wizard-state.ts';
import { ProgressIndicator } from './progress-indicator.tsx';

// The steps after signing in load on the visitor's first interaction (or when the wizard resumes at one): the
// details step alone brings the form library and the photo compressor, which /send does not need to show its
// first step (decision 046).
const { Part: DetailsStep, preload: preloadDetailsStep } = lazyPart(() => import('./details-step.tsx').then((m) => m.DetailsStep));
const { Part: PhotoCheckPanel, preload: preloadPhotoCheckPanel } = lazyPart(() =>
  import('./photo-check-panel.tsx').then((m) => m.PhotoCheckPanel),
);
const { Part: PricingStep, preload: preloadPricingStep } = lazyPart(() => import('./pricing-step.tsx').then((m) => m.PricingStep));
const { Part: UserDetailsStep, preload: preloadUserDetailsStep } = lazyPart(() =>
  import('./user-details-step.tsx').then((m) => m.UserDetailsStep),
);

function preloadSteps(): void {
  for (const preload of [preloadUserDetailsStep, preloadPricingStep, preloadDetailsStep, preloadPhotoCheckPanel]) preload();
}

export interface MessageStepSlotProps {
  giftId: string;
  planId: PlanId | null;
  planName: string | null;
}

/** The e-mail step (from the sender-auth feature, plugged in by the app layer). */
export interface EmailStepSlotProps {
  initialEmail: string;
  onCodeSent: (email: string, resendAvailableAt: number) => void;
}

/** The code step (from the sender-auth feature, plugged in by the app layer). */
export interface VerificationStepSlotProps {
  email: string;
  resendAvailableAt: number;
  onResendCooldown: (until: number) => void;
  onVerified: (result: { isNewUser: boolean; firstName: string | null }) => void;
  onChangeEmail: () => void;
}

interface SendWizardProps {
  /** The price list to show (the detected country's, or the buyer's choice); undefined while it is being detected. */
  region: Region | undefined;
  /** The buyer switched price list (India ₹ / everywhere else $): the app layer remembers it for the session. */
  onRegionChange: (region: Region) => void;
  /** The message step comes from another feature; the app layer plugs it in here. */
  renderMessageStep: (props: MessageStepSlotProps) => ReactNode;
  /** Signing in by e-mail code is shared with My Gifts; the app layer plugs its two steps in here. */
  emailStep: ComponentType<EmailStepSlotProps>;
  verificationStep: ComponentType<VerificationStepSlotProps>;
  /**
   * Carry on with this existing gift of the signed-in sender (My Gifts' Continue): a draft opens at its message
   * step. Anything else is handed back through onResumed for the app layer to route (checkout, share).
   */
  resumeGiftId?: string;
  /** The resume finished: the gift as read (null when it could not be read); the caller drops resumeGiftId. */
  onResumed?: (gift: GiftSummary | null) => void;
  /** A plan chosen before the wizard (the pricing page's Choose): preselected at the plan step until another is picked. */
  carriedPlan?: { id: PlanId; name: string };
}

const PROGRESS: Partial<Record<WizardStep, 1 | 2 | 3>> = { pricing: 1, details: 2, message: 3 };
/** The steps up to the plan's: a plan carried from /pricing may still be put in. */
const BEFORE_GIFT: readonly WizardStep[] = ['email', 'verification', 'userDetails', 'pricing'];

export function SendWizard({
  region,
  onRegionChange,
  renderMessageStep,
  emailStep: EmailStep,
  verificationStep: VerificationStep,
  resumeGiftId,
  onResumed,
  carriedPlan,
}: SendWizardProps) {
  const { state, update, goTo, back, giftPhotos, setGiftPhotos, saveDetailsDraft, verified } = useSendWizard({ resumeGiftId, onResumed });
  const { currentStep } = state;
  // Put in the wizard's state once, on arrival (it survives the sign-in steps and a reload): the latest choice wins
  // over one kept from before, while no gift has been made with a plan yet.
  const carriedId = carriedPlan?.id;
  const carriedName = carriedPlan?.name;
  const carriedApplied = useRef(false);
  const beforeGift = BEFORE_GIFT.includes(currentStep) && !state.currentGiftId;
  useEffect(() => {
    if (carriedApplied.current || !carriedId || !carriedName) return;
    carriedApplied.current = true;
    if (beforeGift) update({ selectedPlan: { id: carriedId, name: carriedName } });
  }, [carriedId, carriedName, beforeGift, update]);
  const stepSection = useRef<HTMLElement>(null);
  useFocusHeading(stepSection, currentStep);
  useEffect(() => onFirstInteraction(preloadSteps), []);

  if (resumeGiftId) return <PageSpinner label="Loading your gift…" />;

  const steps: Record<WizardStep, () => ReactNode> = {
    email: () => (
      <EmailStep
        initialEmail={state.email}
        onCodeSent={(email, resendAvailableAt) => goTo('verification', { email, resendAvailableAt, verificationType: 'email' })}
      />
    ),
    verification: () => (
      <VerificationStep
        email={state.email}
        resendAvailableAt={state.resendAvailableAt}
        onResendCooldown={(until) => update({ resendAvailableAt: until })}
        onChangeEmail={() => goTo('email')}
        onVerified={verified}
      />
    ),
    userDetails: () => (
      <UserDetailsStep email={state.email} initialFirstName={state.firstName ?? ''} onSaved={(firstName) => goTo('pricing', { firstName })} />
    ),
    pricing: () => (
      <PricingStep
        region={region}
        onRegionChange={onRegionChange}
        selectedPlanId={state.selectedPlan?.id ?? null}
        onPicked={(plan) => update({ selectedPlan: { id: plan.id, name: plan.name } })}
        onChosen={(plan) => goTo('details', { selectedPlan: { id: plan.id, name: plan.name } })}
      />
    ),
    details: () =>
      state.selectedPlan ? (
        <DetailsStep
          senderEmail={state.email}
          planId={state.selectedPlan.id}
          initial={state.giftDetails}
          photos={giftPhotos}
          onPhotosChange={setGiftPhotos}
          onDraftChange={saveDetailsDraft}
          onCreated={({ photoCheck, ...gift }) => {
            if (state.currentGiftId && state.currentGiftId !== gift.giftId) void discardReplacedDraft(state.currentGiftId);
            goTo('message', { currentGiftId: gift.giftId, photoCheck, giftDetails: { ...gift, contactMethod: 'email', senderEmail: state.email } });
          }}
        />
      ) : (
        <MissingStep text={texts.sender.planRequired} action="Choose a plan" onAction={() => goTo('pricing')} />
      ),
    message: () =>
      state.currentGiftId ? (
        <>
          {state.photoCheck ? (
            <PhotoCheckPanel giftId={state.currentGiftId} check={state.photoCheck} onChange={(photoCheck) => update({ photoCheck })} />
          ) : null}
          {renderMessageStep({ giftId: state.currentGiftId, planId: state.selectedPlan?.id ?? null, planName: state.selectedPlan?.name ?? null })}
        </>
      ) : (
        <MissingStep text={texts.sender.giftIdMissing} action="Back to gift details" onAction={() => goTo('details')} />
      ),
  };

  const progress = PROGRESS[currentStep];
  const wide = currentStep === 'pricing' || currentStep === 'message';

  return (
    <div className="px-4 py-6 sm:py-10">
      <div className={`mx-auto ${wide ? 'max-w-3xl' : 'max-w-lg'}`}>
        {state.stepHistory.length > 0 ? (
          <div className="mb-4">
            <Button variant="ghost" className="-ml-3" onClick={back}>
              <ArrowLeft className="size-5" aria-hidden />
              Back
            </Button>
          </div>
        ) : null}
        {progress ? <ProgressIndicator current={progress} /> : null}
        <section ref={stepSection} className="rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          <Suspense fallback={<PageSpinner />}>{steps[currentStep]()}</Suspense>
        </section>
      </div>
    </div>
  );
}

function MissingStep({ text, action, onAction }: { text: string; action: string; onAction: () => void }) {
  return (
    <div className="flex flex-col gap-4">
      <Alert>{text}</Alert>
      <Button onClick={onAction}>{action}</Button>
    </div>
  );
}
