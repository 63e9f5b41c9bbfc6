import { texts } from '@giftlens/contract/texts';
import type { PlanId } from '@giftlens/contract/plans';
import type { GiftSummary } from '@giftlens/contract/sender';
import { ArrowLeft } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { scrollToTop } from '../../../lib/scroll.ts';
import { getSenderGift } from '../../../api/sender-gift.ts';
import { getMe } from '../../../lib/sender-me.ts';
import { resumedState, useWizardState, type WizardStep } from '../hooks/use-wizard-state.ts';
import { DetailsStep, type DetailsDraft } from './details-step.tsx';
import { PricingStep } from './pricing-step.tsx';
import { ProgressIndicator } from './progress-indicator.tsx';
import { UserDetailsStep } from './user-details-step.tsx';
import { errorText } from '../../../lib/user-text.ts';

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
  /** The visitor's country from the shared country feature; undefined while it is being detected. */
  countryCode: string | undefined;
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
}

/** Steps that need the server session set by verification. */
const SESSION_STEPS: readonly WizardStep[] = ['userDetails', 'pricing', 'details', 'message'];
const PROGRESS: Partial<Record<WizardStep, 1 | 2 | 3>> = { pricing: 1, details: 2, message: 3 };

export function SendWizard({
  countryCode,
  renderMessageStep,
  emailStep: EmailStep,
  verificationStep: VerificationStep,
  resumeGiftId,
  onResumed,
}: SendWizardProps) {
  const { state, update, goTo, back, reset: resetState, replace } = useWizardState();
  const { currentStep } = state;
  const sessionChecked = useRef(false);
  // The gift photos chosen on the details step; files cannot go into sessionStorage, so they live here while the
  // wizard is open (Back to the plans and forward again keeps them).
  const [giftPhotos, setGiftPhotos] = useState<File[]>([]);
  const reset = useCallback(() => {
    setGiftPhotos([]);
    resetState();
  }, [resetState]);
  const saveDetailsDraft = useCallback(
    (draft: DetailsDraft) =>
      update((s) => ({
        giftDetails: {
          giftId: s.giftDetails?.giftId ?? null,
          contactMethod: 'email',
          senderEmail: s.email,
          ...draft,
        },
      })),
    [update],
  );

  useEffect(() => {
    scrollToTop();
  }, [currentStep]);

  // Resuming an existing gift: who is signed in and the gift come from the server, not from this tab's storage.
  const resumed = useRef(onResumed);
  useEffect(() => {
    resumed.current = onResumed;
  });
  useEffect(() => {
    if (!resumeGiftId) return;
    const controller = new AbortController();
    Promise.all([getMe(controller.signal), getSenderGift(resumeGiftId, controller.signal)])
      .then(([me, gift]) => {
        sessionChecked.current = true;
        if (gift.status === 'draft') replace(resumedState(me, gift));
        resumed.current?.(gift);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
          sessionChecked.current = true;
          toast.error(texts.sender.sessionExpired);
          reset();
        } else {
          toast.error(errorText(err, texts.sender.generic));
        }
        resumed.current?.(null);
      });
    return () => controller.abort();
  }, [resumeGiftId, replace, reset]);

  // After a reload the stored step is only a hint: the server session decides whether we may stay there.
  useEffect(() => {
    if (resumeGiftId || sessionChecked.current || !SESSION_STEPS.includes(currentStep)) return;
    const expire = () => {
      sessionChecked.current = true;
      toast.error(texts.sender.sessionExpired);
      reset();
    };
    if (!state.email) {
      expire();
      return;
    }
    const controller = new AbortController();
    getMe(controller.signal)
      .then((me) => {
        sessionChecked.current = true;
        if (me.email !== state.email) expire();
      })
      .catch((err: unknown) => {
        // An aborted check (unmount, or StrictMode's double effect) is simply run again next time.
        if (controller.signal.aborted) return;
        sessionChecked.current = true;
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) expire();
      });
    return () => controller.abort();
  }, [currentStep, state.email, reset, resumeGiftId]);

  if (resumeGiftId) return <PageSpinner label="Loading your gift…" />;

  let body: ReactNode;
  switch (currentStep) {
    case 'email':
      body = (
        <EmailStep
          initialEmail={state.email}
          onCodeSent={(email, resendAvailableAt) =>
            goTo('verification', { email, resendAvailableAt, verificationType: 'email' })
          }
        />
      );
      break;
    case 'verification':
      body = (
        <VerificationStep
          email={state.email}
          resendAvailableAt={state.resendAvailableAt}
          onResendCooldown={(until) => update({ resendAvailableAt: until })}
          onChangeEmail={() => goTo('email')}
          onVerified={({ isNewUser, firstName }) => {
            sessionChecked.current = true;
            // A used code cannot be entered again, so Back never leads to the e-mail and code steps from here.
            if (isNewUser || !firstName) {
              goTo('userDetails', { firstName: null }, { resetHistory: true });
            } else {
              toast.success(`Welcome back, ${firstName}!`);
              goTo('pricing', { firstName }, { resetHistory: true });
            }
          }}
        />
      );
      break;
    case 'userDetails':
      body = (
        <UserDetailsStep
          email={state.email}
          initialFirstName={state.firstName ?? ''}
          onSaved={(firstName) => goTo('pricing', { firstName })}
        />
      );
      break;
    case 'pricing':
      body = (
        <PricingStep
          countryCode={countryCode}
          selectedPlanId={state.selectedPlan?.id ?? null}
          onPicked={(plan) => update({ selectedPlan: { id: plan.id, name: plan.name } })}
          onChosen={(plan) => goTo('details', { selectedPlan: { id: plan.id, name: plan.name } })}
        />
      );
      break;
    case 'details':
      body = state.selectedPlan ? (
        <DetailsStep
          senderEmail={state.email}
          planId={state.selectedPlan.id}
          initial={state.giftDetails}
          photos={giftPhotos}
          onPhotosChange={setGiftPhotos}
          onDraftChange={saveDetailsDraft}
          onCreated={({ photoWarning, ...gift }) =>
            goTo('message', {
              currentGiftId: gift.giftId,
              photoWarning,
              giftDetails: { ...gift, contactMethod: 'email', senderEmail: state.email },
            })
          }
        />
      ) : (
        <MissingStep text={texts.sender.planRequired} action="Choose a plan" onAction={() => goTo('pricing')} />
      );
      break;
    case 'message':
      body = state.currentGiftId ? (
        <>
          {state.photoWarning ? (
            <Alert tone="warning" className="mb-6">
              <p className="font-semibold">Your gift photo may be hard to recognise</p>
              <p className="mt-1">{state.photoWarning}</p>
              <p className="mt-1">You can go Back and choose a clearer photo, or carry on with this one.</p>
            </Alert>
          ) : null}
          {renderMessageStep({
            giftId: state.currentGiftId,
            planId: state.selectedPlan?.id ?? null,
            planName: state.selectedPlan?.name ?? null,
          })}
        </>
      ) : (
        <MissingStep text={texts.sender.giftIdMissing} action="Back to gift details" onAction={() => goTo('details')} />
      );
      break;
  }

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
        <section className="rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">{body}</section>
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
