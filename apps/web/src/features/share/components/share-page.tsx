import { COPIED_RESET_MS, REDIRECT_AFTER_SCHEDULE_MS } from '@giftlens/contract/constants';
import { M } from '@giftlens/contract/messages';
import { Calendar, Check, ChevronDown, Copy, Gift, Mail, MessageCircle, Share2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { paths } from '../../../app/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSenderGift } from '../../../lib/sender-gift.ts';
import { useScheduleDelivery } from '../api/schedule-delivery.ts';
import {
  defaultDelivery,
  formatLongDate,
  formatTime,
  isInFuture,
  timeOptions,
  toDateValue,
  toIsoWithOffset,
  toLocalDate,
} from '../lib/delivery-time.ts';

const TIME_OPTIONS = timeOptions();

/** The sender's page after payment: the 'Your Message is Ready!' dialog (share now or schedule for later). */
export function SharePage({ giftId }: { giftId: string }) {
  const navigate = useNavigate();
  const link = `${window.location.origin}${paths.shareLink.href(giftId)}`;
  const gift = useSenderGift(giftId);
  const [laterOpen, setLaterOpen] = useState(false);
  const close = () => void navigate(paths.home.href());

  return (
    <div className="bg-gradient-to-b from-brand-50 to-stone-50">
      <div className="flex justify-center px-3 py-6 sm:px-6 sm:py-12">
        <div
          role="dialog"
          aria-labelledby="share-title"
          className="relative w-full max-w-lg rounded-3xl bg-white p-5 border border-stone-200 shadow-xl sm:p-7"
        >
          <button
            type="button"
            onClick={close}
            aria-label="Close"
            className="absolute top-3 right-3 flex size-10 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-800"
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
              {gift.data ? `Your message for ${gift.data.recipientName} is ready to share.` : 'Your gift message is ready to share.'}
            </p>
          </div>

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

          <ShareNow link={link} recipientName={gift.data?.recipientName ?? null} />

          <section className="mt-5 border-t border-stone-200 pt-4">
            <button
              type="button"
              aria-expanded={laterOpen}
              aria-controls="share-later-panel"
              onClick={() => setLaterOpen((o) => !o)}
              className="flex min-h-11 w-full items-center justify-between rounded-xl px-1 text-left font-semibold text-stone-900 hover:text-brand-700"
            >
              <span className="flex items-center gap-2">
                <Calendar className="size-5 text-brand-500" aria-hidden /> Share Link Later
              </span>
              <ChevronDown className={`size-5 transition-transform ${laterOpen ? 'rotate-180' : ''}`} aria-hidden />
            </button>
            {laterOpen ? (
              <div id="share-later-panel" className="mt-3">
                <ScheduleForm giftId={giftId} recipientEmail={gift.data?.recipientEmail ?? ''} />
              </div>
            ) : null}
          </section>
        </div>
      </div>
    </div>
  );
}

function ShareNow({ link, recipientName }: { link: string; recipientName: string | null }) {
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success('Link copied to clipboard!');
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), COPIED_RESET_MS);
    } catch {
      toast.error('Failed to copy link.');
    }
  };

  const canShare = typeof navigator.share === 'function';
  const share = async () => {
    try {
      await navigator.share({
        title: 'A gift message for you',
        text: recipientName ? `${recipientName}, someone left a personal message with your gift.` : 'A personal message for your gift.',
        url: link,
      });
    } catch (err) {
      // Closing the share sheet rejects with AbortError; that is not a failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) toast.error('Failed to share link.');
    }
  };

  return (
    <section aria-labelledby="share-now-heading" className="mt-5 flex flex-col gap-3">
      <h2 id="share-now-heading" className="font-semibold text-stone-900">
        Share Link Now
      </h2>
      <label htmlFor={inputId} className="sr-only">
        Gift link
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
          className="min-h-11 min-w-0 flex-1 rounded-xl border border-stone-300 bg-stone-50 px-3 text-sm text-stone-800"
        />
        <button
          type="button"
          onClick={() => void copy()}
          aria-label={copied ? 'Copied' : 'Copy to clipboard'}
          className={`flex size-11 shrink-0 items-center justify-center rounded-xl border ${copied ? 'border-emerald-300 bg-emerald-50 text-emerald-700' : 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50'}`}
        >
          {copied ? <Check className="size-5" aria-hidden /> : <Copy className="size-5" aria-hidden />}
        </button>
      </div>
      <div className={`grid gap-2 ${canShare ? 'grid-cols-2' : ''}`}>
        <Button block onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden /> Copy Link
        </Button>
        {canShare ? (
          <Button block variant="secondary" onClick={() => void share()}>
            <Share2 className="size-4" aria-hidden /> Share…
          </Button>
        ) : null}
      </div>
    </section>
  );
}

function ScheduleForm({ giftId, recipientEmail }: { giftId: string; recipientEmail: string }) {
  const navigate = useNavigate();
  const schedule = useScheduleDelivery();
  const [initial] = useState(() => defaultDelivery());
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState(initial.time);
  const [contact, setContact] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [today] = useState(() => toDateValue(new Date()));
  // Choosing e-mail fills in the recipient's e-mail from the gift until the sender types their own.
  const contactValue = contact ?? recipientEmail;

  const when = date && time ? toLocalDate(date, time) : null;

  const redirect = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirect.current), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (schedule.isPending || done) return;
    const fail = (text: string) => {
      setError(text);
      toast.error(text);
    };
    if (!date || !time || !when) return fail(M.scheduleDateTimeRequired);
    const recipient = contactValue.trim();
    if (!recipient) return fail(M.scheduleContactRequired);
    if (!isInFuture(when)) return fail(M.scheduleFuture);
    setError(null);
    schedule.mutate(
      {
        giftId,
        recipientContact: recipient.toLowerCase(),
        contactType: 'email',
        scheduledDatetime: toIsoWithOffset(when),
        timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      {
        onSuccess: () => {
          setDone(true);
          toast.success(`Delivery scheduled for ${formatLongDate(when)} at ${formatTime(when)}!`);
          redirect.current = window.setTimeout(() => void navigate(paths.home.href()), REDIRECT_AFTER_SCHEDULE_MS);
        },
        onError: (err) => fail(err.message || M.scheduleFailed),
      },
    );
  };

  const disabled = schedule.isPending || done || !date || !time || !contactValue.trim();

  return (
    <form id="share-later-form" onSubmit={submit} noValidate className="flex flex-col gap-4">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-stone-800">Send the link by</legend>
        <div className="grid grid-cols-2 gap-2">
          <label className="flex min-h-11 cursor-not-allowed items-center justify-center gap-2 rounded-xl border border-stone-200 bg-stone-100 px-3 text-sm font-semibold text-stone-400">
            <input type="radio" name="contactType" value="whatsapp" disabled className="sr-only" aria-describedby="schedule-whatsapp-note" />
            <MessageCircle className="size-4" aria-hidden /> WhatsApp
          </label>
          <label className="flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-xl border-2 border-brand-500 bg-brand-50 px-3 text-sm font-semibold text-brand-700">
            <input type="radio" name="contactType" value="email" defaultChecked className="sr-only" />
            <Mail className="size-4" aria-hidden /> Email
          </label>
        </div>
        <p id="schedule-whatsapp-note" className="mt-1.5 text-xs text-stone-500">
          WhatsApp delivery is not available yet, so we&apos;ll send the link by e-mail.
        </p>
      </fieldset>

      <TextField
        label="Recipient email"
        type="email"
        inputMode="email"
        autoComplete="off"
        placeholder="recipient@example.com"
        value={contactValue}
        onChange={(e) => setContact(e.target.value.toLowerCase())}
      />

      <div className="grid grid-cols-2 gap-3">
        <TextField label="Date" compact type="date" min={today} value={date} onChange={(e) => setDate(e.target.value)} />
        <SelectField label="Time" compact value={time} onChange={(e) => setTime(e.target.value)}>
          <option value="">Select time</option>
          {TIME_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      </div>

      {when ? (
        <p className="rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700" aria-live="polite">
          <span className="font-medium text-stone-900">Scheduled for:</span> {formatLongDate(when)} at {formatTime(when)}
        </p>
      ) : null}

      {error ? <Alert>{error}</Alert> : null}

      <Button type="submit" block disabled={disabled}>
        {schedule.isPending ? 'Scheduling...' : 'Schedule Delivery'}
      </Button>
    </form>
  );
}
