import type { GiftSummary } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { getSenderGift } from '../../../api/sender-gift.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { scrollToTop } from '../../../lib/scroll.ts';
import { getMe } from '../../../api/sender-me.ts';
import { errorText } from '../../../lib/user-text.ts';
import type { DetailsDraft } from './use-details-form.ts';
import { resumedState, useWizardState, type WizardStep } from './use-wizard-state.ts';

/** Steps that need the server session set by verification. */
const SESSION_STEPS: readonly WizardStep[] = ['userDetails', 'pricing', 'details', 'message'];

const isSignedOut = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 403);

/**
 * The wizard's state and what keeps it honest: the stored step is checked against the server session after a
 * reload, an existing gift is resumed from the server, and each step starts at the top of the page.
 */
export function useSendWizard({ resumeGiftId, onResumed }: { resumeGiftId?: string; onResumed?: (gift: GiftSummary | null) => void }) {
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
        giftDetails: { giftId: s.giftDetails?.giftId ?? null, contactMethod: 'email', senderEmail: s.email, ...draft },
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
        if (isSignedOut(err)) {
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

  // A sender who is signed in already ("Send a new gift" from My Gifts) is not asked for an e-mail code again
  // (issue 37): a fresh wizard asks the server who is signed in and starts at the plans (or the name step).
  const startedSignedIn = useRef(false);
  useEffect(() => {
    if (resumeGiftId || startedSignedIn.current || currentStep !== 'email' || state.stepHistory.length > 0) return;
    const controller = new AbortController();
    getMe(controller.signal)
      .then((me) => {
        startedSignedIn.current = true;
        sessionChecked.current = true;
        goTo(me.firstName ? 'pricing' : 'userDetails', { email: me.email, firstName: me.firstName }, { resetHistory: true });
      })
      .catch(() => {
        // Not signed in (or not known): the e-mail step, as before. An aborted check runs again next time.
        if (!controller.signal.aborted) startedSignedIn.current = true;
      });
    return () => controller.abort();
  }, [currentStep, resumeGiftId, goTo, state.stepHistory.length]);

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
        if (isSignedOut(err)) expire();
      });
    return () => controller.abort();
  }, [currentStep, state.email, reset, resumeGiftId]);

  const verified = ({ isNewUser, firstName }: { isNewUser: boolean; firstName: string | null }) => {
    sessionChecked.current = true;
    // A used code cannot be entered again, so Back never leads to the e-mail and code steps from here.
    if (isNewUser || !firstName) {
      goTo('userDetails', { firstName: null }, { resetHistory: true });
    } else {
      toast.success(`Welcome back, ${firstName}!`);
      goTo('pricing', { firstName }, { resetHistory: true });
    }
  };

  return { state, update, goTo, back, giftPhotos, setGiftPhotos, saveDetailsDraft, verified };
}
