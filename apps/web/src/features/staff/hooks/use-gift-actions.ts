import { useCallback, useRef, useState, type RefObject } from 'react';
import { useGiftAction, useShowMessage, type GiftAction } from '../api/staff-gifts.ts';

/** Which action's form is open: one at a time. A delivery's "Send again" is keyed by the delivery. */
export type OpenForm = 'extend' | 'refund' | 'takedown' | 'lift' | 'message' | `resend:${string}` | null;

const DONE: Record<GiftAction['kind'], string> = {
  resend: 'The delivery is being sent again.',
  extend: 'The plan was extended.',
  refund: 'The gift was refunded. The sender is told by e-mail.',
  takedown: 'The gift was taken down.',
  lift: 'The take-down was lifted: the gift opens again.',
};

/**
 * The gift page's actions: which form is open, the calls, the line announced when one succeeds, and focus back on
 * the button that opened a form once it closes.
 */
export function useGiftActions(giftId: string, fallbackFocus: RefObject<HTMLElement | null>) {
  const [open, setOpen] = useState<OpenForm>(null);
  const [done, setDone] = useState<string | null>(null);
  /** The delivery last sent again: the page follows it until it is sent or fails. */
  const [resent, setResent] = useState<string | null>(null);
  const action = useGiftAction(giftId);
  const message = useShowMessage(giftId);
  const openers = useRef(new Map<string, HTMLButtonElement | null>());

  const opener = useCallback(
    (key: Exclude<OpenForm, null>) => (el: HTMLButtonElement | null) => {
      openers.current.set(key, el);
    },
    [],
  );

  /** Closes the open form; focus goes back to the button that opened it, or to the gift's heading. */
  const close = (to: 'opener' | 'heading' = 'opener') => {
    const el = open && to === 'opener' ? openers.current.get(open) : fallbackFocus.current;
    // Once the form has gone from the page.
    requestAnimationFrame(() => el?.focus());
    setOpen(null);
    action.reset();
  };

  const toggle = (key: Exclude<OpenForm, null>) => {
    action.reset();
    message.reset();
    setDone(null);
    setOpen((current) => (current === key ? null : key));
  };

  const run = (a: GiftAction) =>
    action.mutate(a, {
      onSuccess: () => {
        setDone(DONE[a.kind]);
        if (a.kind === 'resend') setResent(a.deliveryId);
        // Extend stays where it was; a delivery sent again loses its button while it is on its way, and a refund
        // or a take-down disables theirs: focus then goes to the top of the gift, below which the result is said.
        close(a.kind === 'extend' ? 'opener' : 'heading');
      },
    });

  const showMessage = (reason: string) =>
    message.mutate(reason, {
      onSuccess: () => {
        setDone('The message is shown below. Opening it was recorded in the audit trail.');
        setOpen(null);
      },
    });

  return { open, toggle, close, opener, run, action, message, showMessage, done, resent };
}
