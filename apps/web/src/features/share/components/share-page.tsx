import type { Delivery } from '@giftlens/contract/scheduling';
import { Gift, Loader2, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { BackupCodeBox } from '../../../components/ui/backup-code-box.tsx';
import { isChangeable } from '../../../deliveries/lib/delivery-status.ts';
import { useSenderGift } from '../../../api/sender-gift.ts';
import { useSenderMe } from '../../../api/sender-me.ts';
import { useDeliveries } from '../../../deliveries/api/deliveries.ts';
import { useSendNowToasts } from '../hooks/use-send-now-toasts.ts';
import { PrintCard } from '../../../components/print-card/print-card.tsx';
import { DeliveriesList } from './deliveries-list.tsx';
import { PushOptIn } from './push-opt-in.tsx';
import type { ScheduleMode } from './schedule-form.tsx';
import { ShareLater } from './share-later.tsx';
import { ShareNow } from './share-now.tsx';

/** Until the deliveries have loaded, WhatsApp is offered as unavailable. */
const WHATSAPP_UNKNOWN = { available: false, reason: null };

/**
 * The sender's page after payment: the 'Your Message is Ready!' dialog (share now or schedule for later).
 * `changeDeliveryId` (from My Gifts' Change) opens that delivery's Change form once the deliveries are in.
 */
export function SharePage({
  giftId,
  changeDeliveryId,
  groupSection = null,
}: {
  giftId: string;
  changeDeliveryId?: string;
  /** The group gift section (features/group-gift, composed by the route), below the deliveries. */
  groupSection?: ReactNode;
}) {
  const navigate = useNavigate();
  const link = `${window.location.origin}${paths.shareLink.href(giftId)}`;
  const gift = useSenderGift(giftId);
  const me = useSenderMe();
  const deliveries = useDeliveries(giftId);
  const [laterOpen, setLaterOpen] = useState(false);
  const [form, setForm] = useState<ScheduleMode | null>(null);
  const [changeRequested, setChangeRequested] = useState(changeDeliveryId);
  const close = () => void navigate(paths.home.href());

  // Adjusting state while rendering (not in an effect): the form opens in the same render the list arrives in.
  if (changeRequested && deliveries.data) {
    setChangeRequested(undefined);
    const requested = deliveries.data.deliveries.find((d) => d.id === changeRequested);
    if (requested && isChangeable(requested)) {
      setLaterOpen(true);
      setForm({ kind: 'change', delivery: requested });
    }
  }
  const processing = gift.data?.messageState === 'processing';

  const recipientName = gift.data?.recipientName ?? null;
  const recipientEmail = gift.data?.recipientEmail ?? '';
  const all = deliveries.data?.deliveries ?? [];
  useSendNowToasts(all);
  const pending = all.filter((d) => d.status === 'pending');
  // While 'Share Link Later' shows the pending deliveries, the list below does not repeat them.
  const laterShowsPending = laterOpen && !form && pending.length > 0;

  const toggleLater = () => {
    setLaterOpen((o) => !o);
    setForm(null);
  };
  // Change from the list opens the schedule form in 'Share Link Later', which takes focus.
  const changeDelivery = (delivery: Delivery) => {
    setLaterOpen(true);
    setForm({ kind: 'change', delivery });
  };

  return (
    <div className="bg-gradient-to-b from-brand-50 to-stone-50">
      <div className="flex justify-center px-3 py-6 sm:px-6 sm:py-12">
        {/* A card on the page, not a dialog: nothing behind it is inert and focus is not trapped. */}
        <section
          aria-labelledby="share-title"
          className="relative w-full max-w-lg rounded-3xl bg-white p-5 border border-stone-200 shadow-xl sm:p-7"
        >
          <button
            type="button"
            onClick={close}
            aria-label="Close"
            className="absolute top-3 right-3 flex size-11 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-800"
          >
            <X className="size-5" aria-hidden />
          </button>

          <div className="flex flex-col items-center gap-2 pr-6 pl-6 text-center">
            <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
              <Gift className="size-7" aria-hidden />
            </span>
            <h1 id="share-title" className="text-2xl font-bold tracking-tight text-stone-900">
              Your Message is Ready!
            </h1>
            <p className="text-sm text-stone-600">
              {recipientName
                ? `Your message for ${recipientName} is ready to share.`
                : 'Your gift message is ready to share.'}
            </p>
          </div>

          {processing ? (
            <Alert tone="info" className="mt-5">
              <p className="flex items-center gap-2 font-semibold">
                <Loader2 className="size-4 animate-spin" aria-hidden /> Processing your message
              </p>
              <p className="mt-1">
                We are preparing it so it plays on every phone. You can share the link already: until it is ready,
                your recipient sees that the gift is being prepared.
              </p>
            </Alert>
          ) : null}

          <section aria-labelledby="next-heading" className="mt-5 rounded-2xl bg-brand-50 p-4">
            <h2 id="next-heading" className="text-sm font-semibold text-stone-900">
              What happens next?
            </h2>
            <ol className="mt-2 flex list-decimal flex-col gap-1 pl-5 text-sm text-stone-700">
              <li>Choose a link-sharing option below.</li>
              <li>Your recipient scans their gift by clicking the link.</li>
              <li>Your personal message is revealed instantly.</li>
            </ol>
          </section>

          {gift.data?.backupCode ? <BackupCodeBox code={gift.data.backupCode} className="mt-5" headingLevel={2} /> : null}

          {gift.data?.backupCode ? (
            <PrintCard giftId={giftId} recipientName={gift.data.recipientName} occasion={gift.data.occasion} backupCode={gift.data.backupCode} link={link} />
          ) : null}

          <ShareNow
            giftId={giftId}
            link={link}
            recipientEmail={recipientEmail}
            senderFirstName={me.data?.firstName ?? null}
          />

          <ShareLater
            giftId={giftId}
            recipientEmail={recipientEmail}
            pending={pending}
            whatsapp={deliveries.data?.whatsapp ?? WHATSAPP_UNKNOWN}
            loading={deliveries.isPending}
            open={laterOpen}
            onToggle={toggleLater}
            form={form}
            onFormChange={setForm}
          />

          <DeliveriesList
            giftId={giftId}
            deliveries={laterShowsPending ? all.filter((d) => d.status !== 'pending') : all}
            error={deliveries.data ? null : (deliveries.error?.message ?? null)}
            onChange={changeDelivery}
          />

          {groupSection}

          {gift.data?.firstOpenedAt ? (
            <p className="text-sm text-stone-600">{recipientName ?? 'The recipient'} already opened the gift.</p>
          ) : (
            <PushOptIn recipientName={recipientName} />
          )}

          <p className="mt-5 border-t border-stone-200 pt-4 text-center text-sm text-stone-600">
            Later, see whether it was opened, watch reactions or change deliveries in{' '}
            <Link to={paths.myGifts.href()} className="font-semibold text-brand-700 underline underline-offset-2">
              My Gifts
            </Link>
            .
          </p>
        </section>
      </div>
    </div>
  );
}
