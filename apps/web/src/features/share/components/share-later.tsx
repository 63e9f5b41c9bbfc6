import { REDIRECT_AFTER_SCHEDULE_MS } from '@giftlens/contract/constants';
import type { DeliveriesResponse, Delivery } from '@giftlens/contract/scheduling';
import { Calendar, CalendarPlus, ChevronDown } from 'lucide-react';
import { texts } from '@giftlens/contract/texts';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { formatLongDate, formatTime } from '../../../lib/format.ts';
import { useRefreshDeliveries } from '../../../deliveries/api/deliveries.ts';
import { DeliveryItem } from '../../../deliveries/components/delivery-item.tsx';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { confirmationState, type ScheduleConfirmation } from '../lib/schedule-confirmation.ts';
import type { ScheduleMode } from './schedule-form.tsx';

// The panel opens on a tap (or from My Gifts' Change): the schedule form's code loads on the first interaction
// (decision 046).
const { Part: ScheduleForm, preload: preloadScheduleForm } = lazyPart(() =>
  import('./schedule-form.tsx').then((m) => m.ScheduleForm),
);

interface ShareLaterProps {
  giftId: string;
  recipientEmail: string;
  /** The gift's pending deliveries: when there are any, they are shown instead of an empty form. */
  pending: Delivery[];
  whatsapp: DeliveriesResponse['whatsapp'];
  /** The deliveries are still loading, so it is not known yet whether one is pending. */
  loading: boolean;
  open: boolean;
  onToggle: () => void;
  /** The form opened on request (Change, Schedule another delivery); null shows the default view. */
  form: ScheduleMode | null;
  onFormChange: (form: ScheduleMode | null) => void;
}

/**
 * 'Share Link Later', collapsible. Without a pending delivery it holds the schedule form; with one it shows that
 * delivery (Change, Cancel) instead, so the same delivery is not scheduled twice by accident.
 */
export function ShareLater({
  giftId,
  recipientEmail,
  pending,
  whatsapp,
  loading,
  open,
  onToggle,
  form,
  onFormChange,
}: ShareLaterProps) {
  const navigate = useNavigate();
  const refreshDeliveries = useRefreshDeliveries(giftId);
  const redirect = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirect.current), []);
  useEffect(() => onFirstInteraction(preloadScheduleForm), []);
  // The confirmation of the delivery just scheduled, and whether the jump home is still to come.
  const [confirmation, setConfirmation] = useState<ScheduleConfirmation | null>(null);
  const { shown: confirmationShown, listed } = confirmationState(confirmation, pending);
  if (confirmation && listed && !confirmation.seen) setConfirmation({ ...confirmation, seen: true });

  const change = (delivery: Delivery) => onFormChange({ kind: 'change', delivery });

  const scheduled = (when: Date) => {
    onFormChange(null);
    const text = texts.sender.deliveryScheduled(formatLongDate(when), formatTime(when));
    toast.success(text);
    setConfirmation({ text, leaving: true, at: when.getTime(), seen: false });
    redirect.current = window.setTimeout(() => void navigate(paths.home.href()), REDIRECT_AFTER_SCHEDULE_MS);
  };
  const stay = () => {
    window.clearTimeout(redirect.current);
    setConfirmation((c) => (c ? { ...c, leaving: false } : null));
  };
  const changed = (when: Date) => {
    onFormChange(null);
    setConfirmation(null);
    toast.success(`Delivery rescheduled for ${formatLongDate(when)} at ${formatTime(when)}!`);
  };

  let panel;
  if (form) {
    panel = (
      <ScheduleForm
        key={form.kind === 'change' ? form.delivery.id : 'new'}
        giftId={giftId}
        recipientEmail={recipientEmail}
        whatsapp={whatsapp}
        mode={form}
        title={form.kind === 'change' ? 'Change delivery' : 'Schedule another delivery'}
        onSaved={form.kind === 'change' ? changed : scheduled}
        onBack={() => onFormChange(null)}
      />
    );
  } else if (loading) {
    panel = <p className="text-sm text-stone-500">Loading your deliveries…</p>;
  } else if (pending.length > 0) {
    panel = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-stone-600">
          Your link is already scheduled. You can change or cancel it here.
        </p>
        <ul className="flex flex-col gap-2">
          {pending.map((d) => (
            <DeliveryItem key={d.id} delivery={d} onChange={change} onCancelled={refreshDeliveries} />
          ))}
        </ul>
        <Button variant="secondary" size="sm" block onClick={() => onFormChange({ kind: 'new' })}>
          <CalendarPlus className="size-4" aria-hidden /> Schedule another delivery
        </Button>
      </div>
    );
  } else {
    panel = (
      <ScheduleForm
        giftId={giftId}
        recipientEmail={recipientEmail}
        whatsapp={whatsapp}
        mode={{ kind: 'new' }}
        onSaved={scheduled}
      />
    );
  }

  return (
    <section className="mt-5 border-t border-stone-200 pt-4">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="share-later-panel"
        onClick={onToggle}
        className="flex min-h-11 w-full items-center justify-between rounded-xl px-1 text-left font-semibold text-stone-900 hover:text-brand-700"
      >
        <span className="flex items-center gap-2">
          <Calendar className="size-5 text-brand-500" aria-hidden /> Share Link Later
        </span>
        <ChevronDown className={`size-5 transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden />
      </button>
      {confirmation && confirmationShown ? <ScheduledConfirmation text={confirmation.text} leaving={confirmation.leaving} onStay={stay} /> : null}
      {open ? (
        <div id="share-later-panel" className="mt-3">
          <Suspense fallback={<p className="text-sm text-stone-500">Loading…</p>}>{panel}</Suspense>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The spec's jump to / follows a schedule 2 s later: the confirmation is announced first (focus moves to Stay on
 * this page, which the confirmation describes), and staying cancels the jump.
 */
function ScheduledConfirmation({ text, leaving, onStay }: { text: string; leaving: boolean; onStay: () => void }) {
  const describedBy = useId();
  const box = useRef<HTMLDivElement>(null);
  const stayButton = useRef<HTMLButtonElement>(null);
  const confirmationText = useRef<HTMLParagraphElement>(null);
  // Focus on Stay while the jump is due; once staying, on the confirmation that replaced the button. The whole
  // confirmation is scrolled into view, not only the button (the sticky header would hide the words above it).
  useEffect(() => {
    (leaving ? stayButton.current : confirmationText.current)?.focus({ preventScroll: true });
    box.current?.scrollIntoView({ block: 'center' });
  }, [leaving]);
  return (
    <div ref={box} className="mt-3 flex flex-col gap-3 rounded-2xl bg-emerald-50 p-4 text-sm text-emerald-900">
      <p ref={confirmationText} id={describedBy} role="status" tabIndex={-1} className="outline-none">
        <span className="font-semibold">{text}</span> {leaving ? texts.sender.leavingAfterSchedule : null}
      </p>
      {leaving ? (
        <Button ref={stayButton} variant="secondary" size="sm" aria-describedby={describedBy} onClick={onStay}>
          {texts.sender.stayOnThisPage}
        </Button>
      ) : null}
    </div>
  );
}
