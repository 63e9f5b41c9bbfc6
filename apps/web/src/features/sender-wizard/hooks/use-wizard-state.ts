import { STEP_HISTORY_MAX } from '@giftlens/contract/constants';
import { OCCASIONS } from '@giftlens/contract/occasions';
import { PLAN_IDS } from '@giftlens/contract/plans';
import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { readSession, removeSession, writeSession } from '../../../lib/session-store.ts';

export const WIZARD_STEPS = ['email', 'verification', 'userDetails', 'pricing', 'details', 'message'] as const;
export const WizardStep = z.enum(WIZARD_STEPS);
export type WizardStep = z.infer<typeof WizardStep>;

/** Bumped whenever the stored shape changes, so an old tab's state is dropped instead of misread. */
export const FORM_VERSION = 1;
/** sessionStorage key holding the whole wizard state (one key, validated with zod when read back). */
export const WIZARD_STORAGE_KEY = 'giftlens.senderWizard';

const StoredState = z.object({
  formVersion: z.literal(FORM_VERSION),
  currentStep: WizardStep,
  stepHistory: z.array(z.object({ step: WizardStep, time: z.number() })).max(STEP_HISTORY_MAX),
  verificationType: z.enum(['email', 'whatsapp']),
  email: z.string(),
  firstName: z.string().nullable(),
  /** Epoch ms before which "Resend code" stays disabled. */
  resendAvailableAt: z.number(),
  selectedPlan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }).nullable(),
  giftDetails: z
    .object({
      giftId: z.string().nullable(),
      occasion: z.enum(OCCASIONS).or(z.literal('')),
      recipientName: z.string(),
      recipientEmail: z.string(),
      contactMethod: z.literal('email'),
      senderEmail: z.string(),
    })
    .nullable(),
  currentGiftId: z.string().nullable(),
  /** The server's note when the gift photo may be hard to recognise. */
  photoWarning: z.string().nullable().default(null),
});
export type WizardState = z.infer<typeof StoredState>;

function initialState(): WizardState {
  return {
    formVersion: FORM_VERSION,
    currentStep: 'email',
    stepHistory: [],
    verificationType: 'email',
    email: '',
    firstName: null,
    resendAvailableAt: 0,
    selectedPlan: null,
    giftDetails: null,
    currentGiftId: null,
    photoWarning: null,
  };
}

export function useWizardState() {
  const [state, setState] = useState<WizardState>(() => readSession(WIZARD_STORAGE_KEY, StoredState) ?? initialState());

  useEffect(() => {
    writeSession(WIZARD_STORAGE_KEY, state);
  }, [state]);

  const update = useCallback((patch: Partial<WizardState>) => setState((s) => ({ ...s, ...patch })), []);

  /** Moves to `step`, remembering where we came from (last 10 entries). */
  const goTo = useCallback(
    (step: WizardStep, patch: Partial<WizardState> = {}, options: { resetHistory?: boolean } = {}) =>
      setState((s) => ({
        ...s,
        ...patch,
        currentStep: step,
        stepHistory: options.resetHistory
          ? []
          : [...s.stepHistory, { step: s.currentStep, time: Date.now() }].slice(-STEP_HISTORY_MAX),
      })),
    [],
  );

  const back = useCallback(
    () =>
      setState((s) => {
        const previous = s.stepHistory.at(-1);
        if (!previous) return s;
        return { ...s, currentStep: previous.step, stepHistory: s.stepHistory.slice(0, -1) };
      }),
    [],
  );

  /** Forget everything and start at the e-mail step (session expired, or "use a different e-mail"). */
  const reset = useCallback(() => {
    removeSession(WIZARD_STORAGE_KEY);
    setState(initialState());
  }, []);

  return { state, update, goTo, back, reset };
}

/**
 * After a gift is paid the next visit to /send starts a new gift: keep who the sender is, drop the old gift.
 * (Called by the app layer; the server session still decides whether the sender must verify again.)
 */
export function prepareNextGift(): void {
  const stored = readSession(WIZARD_STORAGE_KEY, StoredState);
  if (!stored) return;
  const verified = stored.currentStep !== 'email' && stored.currentStep !== 'verification';
  writeSession(WIZARD_STORAGE_KEY, {
    ...initialState(),
    email: stored.email,
    firstName: stored.firstName,
    currentStep: verified ? 'pricing' : 'email',
  } satisfies WizardState);
}
