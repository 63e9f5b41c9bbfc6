import { texts } from '@giftlens/contract/texts';
import type { Delivery } from '@giftlens/contract/scheduling';
import { Mail, MessageCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../components/ui/button.tsx';
import { EmailAddress } from '../../components/ui/email-address.tsx';
import { errorText } from '../../lib/user-text.ts';
import { useCancelDelivery } from '../api/cancel-delivery.ts';
import { deliveryStatus, isChangeable, type StatusTone } from '../lib/delivery-status.ts';

const TONES: Record<StatusTone, string> = {
  scheduled: 'text-stone-700',
  progress: 'text-sky-700',
  sent: 'text-emerald-700',
  warning: 'text-amber-800',
  error: 'text-red-700',
  cancelled: 'text-stone-500',
};

/**
 * One delivery: channel, contact and status in words. A pending or failed one can be changed (the caller opens
 * its schedule form, or goes to the share page) or cancelled after an inline confirmation. Shared by the share
 * page and My Gifts; each supplies the refresh of its own list, run after a cancel.
 */
export function DeliveryItem({
  delivery,
  onChange,
  onCancelled,
}: {
  delivery: Delivery;
  onChange: (delivery: Delivery) => void;
  /** Refreshes the caller's list once the delivery is cancelled; a promise is waited for before "Delivery cancelled.". */
  onCancelled: () => unknown;
}) {
  const cancel = useCancelDelivery(onCancelled);
  const [cancelling, setCancelling] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const describedBy = useId();
  const status = deliveryStatus(delivery);
  const Icon = delivery.contactType === 'whatsapp' ? MessageCircle : Mail;

  const confirmCancel = () => {
    if (cancelling) return;
    setCancelling(true);
    cancel.mutateAsync(delivery.id).then(
      () => {
        // The refreshed list drops the row (a cancelled delivery is not shown, nor changeable).
        setCancelling(false);
        toast.success('Delivery cancelled.');
      },
      (err: unknown) => {
        setCancelling(false);
        setConfirming(false);
        toast.error(errorText(err, texts.sender.generic));
      },
    );
  };

  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white p-3.5">
      <div id={describedBy} className="flex items-start gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <Icon className="size-4" aria-hidden />
          <span className="sr-only">{delivery.contactType === 'whatsapp' ? 'WhatsApp:' : 'E-mail:'}</span>
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-medium text-stone-900">
            {delivery.contactType === 'email' ? (
              <EmailAddress email={delivery.recipientContact} />
            ) : (
              delivery.recipientContact
            )}
          </p>
          <p className={`text-sm ${TONES[status.tone]}`}>{status.text}</p>
        </div>
      </div>

      {isChangeable(delivery) ? (
        confirming ? (
          <div
            role="group"
            aria-label="Cancel this delivery?"
            className="flex flex-col gap-2 border-t border-stone-100 pt-3"
          >
            <p className="text-sm font-medium text-red-800">
              Cancel this delivery? The link will not be sent.
            </p>
            <div className="grid grid-cols-2 gap-2 sm:flex sm:justify-end">
              <Button variant="danger" size="sm" disabled={cancelling} onClick={confirmCancel}>
                {cancelling ? 'Cancelling...' : 'Yes, cancel'}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                autoFocus
                disabled={cancelling}
                onClick={() => setConfirming(false)}
              >
                Keep it
              </Button>
            </div>
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-2 sm:flex sm:justify-end">
            <Button
              variant="secondary"
              size="sm"
              aria-describedby={describedBy}
              onClick={() => onChange(delivery)}
            >
              Change
            </Button>
            <Button
              variant="secondary"
              size="sm"
              aria-describedby={describedBy}
              onClick={() => setConfirming(true)}
            >
              Cancel
            </Button>
          </div>
        )
      ) : null}
    </li>
  );
}
