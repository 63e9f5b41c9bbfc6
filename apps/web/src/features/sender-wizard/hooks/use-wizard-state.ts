import { STEP_HISTORY_MAX } from '@giftlens/contract/constants';
import { OCCASIONS } from '@giftlens/contract/occasions';
import { PLAN_IDS, type PlanId } from '@giftlens/contract/plans';
import { PhotoQuality } from '@giftlens/contract/sender';
import { useCallback, useEffect, useState } from 'react';
import * as z from 'zod/mini';
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
  stepHistory: z.array(z.object({ step: WizardStep, time: z.number() })).check(z.maxLength(STEP_HISTORY_MAX)),
  verificationType: z.enum(['email', 'whatsapp']),
  email: z.string(),
  firstName: z.nullable(z.string()),
  /** Epoch ms before which "Resend code" stays disabled. */
  resendAvailableAt: z.number(),
  selectedPlan: z.nullable(z.object({ id: z.enum(PLAN_IDS), name: z.string() })),
  giftDetails: z.nullable(
    z.object({
      giftId: z.nullable(z.string()),
      occasion: z.union([z.enum(OCCASIONS), z.literal('')]),
      recipientName: z.string(),
      recipientEmail: z.string(),
      contactMethod: z.literal('email'),
      senderEmail: z.string(),
    }),
  ),
  currentGiftId: z.nullable(z.string()),
  /** The gift photos' rating and look-alike flag from the server, for the message step (decision 031). */
  photoCheck: z._default(
    z.nullable(z.object({ quality: z.nullable(PhotoQuality), lookalike: z.boolean(), photoCount: z.number().check(z.int()) })),
    null,
  ),
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
    photoCheck: null,
  };
}

export function useWizardState() {
  const [state, setState] = useState<WizardState>(() => readSession(WIZARD_STORAGE_KEY, StoredState) ?? initialState());

  useEffect(() => {
    writeSession(WIZARD_STORAGE_KEY, state);
  }, [state]);

  /** Changes part of the state: a patch, or a function of the current state giving one. */
  const update = useCallback(
    (patch: Partial<WizardState> | ((s: WizardState) => Partial<WizardState>)) =>
      setState((s) => ({ ...s, ...(typeof patch === 'function' ? patch(s) : patch) })),
    [],
  );

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

  /** Replace the whole state (resuming a gift by its id). */
  const replace = useCallback((next: WizardState) => setState(next), []);

  /** Forget everything and start at the e-mail step (session expired, or "use a different e-mail"). */
  const reset = useCallback(() => {
    removeSession(WIZARD_STORAGE_KEY);
    setState(initialState());
  }, []);

  return { state, update, goTo, back, reset, replace };
}

/**
 * The wizard's state for carrying on with an unpaid gift that already exists (its details step is done): the
 * message step for that gift id, with its plan, so nothing creates a second draft. History starts empty, so Back
 * cannot lead to the details step (which would create a new gift).
 */
export function resumedState(
  me: { email: string; firstName: string | null },
  gift: { giftId: string; occasion: string; recipientName: string; recipientEmail: string | null; plan: { id: PlanId; name: string } },
): WizardState {
  const occasion = z.enum(OCCASIONS).safeParse(gift.occasion);
  return {
    ...initialState(),
    currentStep: 'message',
    email: me.email,
    firstName: me.firstName,
    selectedPlan: { id: gift.plan.id, name: gift.plan.name },
    currentGiftId: gift.giftId,
    giftDetails: {
      giftId: gift.giftId,
      occasion: occasion.success ? occasion.data : '',
      recipientName: gift.recipientName,
      recipientEmail: gift.recipientEmail ?? '',
      contactMethod: 'email',
      senderEmail: me.email,
    },
  };
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

/**
 * The sender proved their e-mail somewhere else (My Gifts): the next visit to /send skips the e-mail and code
 * steps. A gift in progress for the same sender is kept; anything stored for another e-mail is dropped.
 * (Called by the app layer; the wizard still checks the server session when it opens.)
 */
export function startSignedIn({ email, firstName }: { email: string; firstName: string | null }): void {
  const stored = readSession(WIZARD_STORAGE_KEY, StoredState);
  if (stored && stored.email === email && stored.currentStep !== 'email' && stored.currentStep !== 'verification') {
    return;
  }
  writeSession(WIZARD_STORAGE_KEY, {
    ...initialState(),
    email,
    firstName,
    currentStep: firstName ? 'pricing' : 'userDetails',
  } satisfies WizardState);
}

/** Signed out: this tab forgets who the sender was and any gift in progress (the gifts stay on the server). */
export function forgetWizard(): void {
  removeSession(WIZARD_STORAGE_KEY);
}
