import { useCallback, useRef, useState, type RefObject } from 'react';
import { useGiftAction, useShowMessage, type GiftAction } from '../api/staff-gifts.ts';

/** Which action's form is open: one at a time. A delivery's "Send again" is keyed by the delivery. */
export type OpenForm = 'extend' | 'refund' | 'takedown' | 'message' | `resend:${string}` | null;

const DONE: Record<GiftAction['kind'], string> = {
  resend: 'The delivery is being sent again.',
  extend: 'The plan was extended.',
  refund: 'The gift was refunded. The sender is told by e-mail.',
  takedown: 'The gift was taken down.',
};

/**
 * The gift page's actions: which form is open, the calls, the line announced when one succeeds, and focus back on
 * the button that opened a form once it closes.
 */
export function useGiftActions(giftId: string, fallbackFocus: RefObject<HTMLElement | null>) {
  const [open, setOpen] = useState<OpenForm>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useGiftAction(giftId);
  const message = useShowMessage(giftId);
  const openers = useRef(new Map<string, HTMLButtonElement | null>());

  const opener = useCallback(
    (key: Exclude<OpenForm, null>) => (el: HTMLButtonElement | null) => {
      openers.current.set(key, el);
    },
    [],
  );

  const close = () => {
    if (open) {
      const el = openers.current.get(open);
      // Once the form has gone from the page; a button the answer removed (a delivery no longer resendable) leaves
      // focus to the gift's heading.
      requestAnimationFrame(() => (el?.isConnected ? el : fallbackFocus.current)?.focus());
    }
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
        close();
      },
    });

  const showMessage = (reason: string) =>
    message.mutate(reason, {
      onSuccess: () => {
        setDone('The message is shown below. Opening it was recorded in the audit trail.');
        setOpen(null);
      },
    });

  return { open, toggle, close, opener, run, action, message, showMessage, done };
}
