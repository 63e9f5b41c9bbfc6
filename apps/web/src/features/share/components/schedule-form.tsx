import { texts } from '@giftlens/contract/texts';
import type { ContactType, DeliveriesResponse, Delivery } from '@giftlens/contract/scheduling';
import { Mail, MessageCircle, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useChangeDelivery } from '../api/change-delivery.ts';
import { useScheduleDelivery } from '../api/schedule-delivery.ts';
import { isWhatsAppNumber, normalizeContact } from '../lib/contact.ts';
import {
  browserTimeZone,
  changeDefaults,
  defaultDelivery,
  formatLongDate,
  formatTime,
  isInFuture,
  timeOptions,
  toDateValue,
  toIsoWithOffset,
  toLocalDate,
} from '../../../lib/delivery-time.ts';

const TIME_OPTIONS = timeOptions();
const WHATSAPP_NOTE_ID = 'schedule-whatsapp-note';
const WHATSAPP_OFF_NOTE = 'WhatsApp delivery is not available yet, so we’ll send the link by e-mail.';

/** A new delivery (POST), or new time and contact for an existing one (PATCH). */
export type ScheduleMode = { kind: 'new' } | { kind: 'change'; delivery: Delivery };

interface ScheduleFormProps {
  giftId: string;
  /** Filled in when e-mail is chosen, until the sender types their own. */
  recipientEmail: string;
  whatsapp: DeliveriesResponse['whatsapp'];
  mode: ScheduleMode;
  /** A heading that takes focus when the form opens on request (Change, Schedule another delivery). */
  title?: string;
  onSaved: (when: Date) => void;
  onBack?: () => void;
}

/** The spec's schedule dialog: channel, contact, date and time (10-minute steps), the 'Scheduled for' preview. */
export function ScheduleForm({
  giftId,
  recipientEmail,
  whatsapp,
  mode,
  title,
  onSaved,
  onBack,
}: ScheduleFormProps) {
  const schedule = useScheduleDelivery(giftId);
  const change = useChangeDelivery(giftId);
  const editing = mode.kind === 'change' ? mode.delivery : null;

  const [initial] = useState(() =>
    editing ? changeDefaults(new Date(editing.scheduledDatetime)) : defaultDelivery(),
  );
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState(initial.time);
  const [chosenType, setChosenType] = useState<ContactType>(editing?.contactType ?? 'email');
  const [email, setEmail] = useState<string | null>(
    editing?.contactType === 'email' ? editing.recipientContact : null,
  );
  const [phone, setPhone] = useState(editing?.contactType === 'whatsapp' ? editing.recipientContact : '');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [today] = useState(() => toDateValue(new Date()));

  const contactType: ContactType = whatsapp.available ? chosenType : 'email';
  const contactValue = contactType === 'email' ? (email ?? recipientEmail) : phone;
  const when = date && time ? toLocalDate(date, time) : null;
  const saving = schedule.isPending || change.isPending;

  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (saving || done) return;
    const fail = (text: string) => {
      setError(text);
      toast.error(text);
    };
    if (!date || !time || !when) return fail(texts.sender.scheduleDateTimeRequired);
    const recipientContact = normalizeContact(contactType, contactValue);
    if (!recipientContact) return fail(texts.sender.scheduleContactRequired);
    if (contactType === 'whatsapp' && !isWhatsAppNumber(recipientContact))
      return fail(texts.sender.whatsappNumberInvalid);
    if (!isInFuture(when)) return fail(texts.sender.scheduleFuture);
    setError(null);
    const fields = {
      recipientContact,
      contactType,
      scheduledDatetime: toIsoWithOffset(when),
      timezone: browserTimeZone(),
    };
    const callbacks = {
      onSuccess: () => {
        setDone(true);
        onSaved(when);
      },
      onError: (err: Error) => fail(err.message || texts.sender.scheduleFailed),
    };
    if (editing) change.mutate({ id: editing.id, body: fields }, callbacks);
    else schedule.mutate({ giftId, ...fields }, callbacks);
  };

  const disabled = saving || done || !date || !time || !contactValue.trim();
  const submitLabel = editing
    ? saving
      ? 'Saving...'
      : 'Save Changes'
    : saving
      ? 'Scheduling...'
      : 'Schedule Delivery';

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {title ? (
        <h3
          ref={heading}
          tabIndex={-1}
          className="scroll-mt-24 font-semibold text-stone-900 focus:outline-none"
        >
          {title}
        </h3>
      ) : null}

      <fieldset>
        <legend className="mb-2 text-sm font-medium text-stone-800">Send the link by</legend>
        <div className="grid grid-cols-2 gap-2">
          <ContactOption
            type="whatsapp"
            label="WhatsApp"
            icon={MessageCircle}
            checked={contactType === 'whatsapp'}
            disabled={!whatsapp.available}
            onSelect={setChosenType}
          />
          <ContactOption
            type="email"
            label="Email"
            icon={Mail}
            checked={contactType === 'email'}
            onSelect={setChosenType}
          />
        </div>
        {whatsapp.available ? null : (
          <p id={WHATSAPP_NOTE_ID} className="mt-1.5 text-xs text-stone-500">
            {whatsapp.reason ?? WHATSAPP_OFF_NOTE}
          </p>
        )}
      </fieldset>

      {contactType === 'email' ? (
        <TextField
          label="Recipient email"
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder="recipient@example.com"
          value={contactValue}
          onChange={(e) => setEmail(e.target.value.toLowerCase())}
        />
      ) : (
        <TextField
          label="Recipient WhatsApp number"
          hint="With the country code."
          type="tel"
          inputMode="tel"
          autoComplete="off"
          placeholder="+919876543210"
          value={contactValue}
          onChange={(e) => setPhone(e.target.value)}
        />
      )}

      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Date"
          compact
          type="date"
          min={today}
          value={date}
          onChange={(e) => setDate(e.target.value)}
        />
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
          <span className="font-medium text-stone-900">Scheduled for:</span> {formatLongDate(when)} at{' '}
          {formatTime(when)}
        </p>
      ) : null}

      {error ? <Alert>{error}</Alert> : null}

      <div className="flex flex-col gap-2">
        <Button type="submit" block disabled={disabled}>
          {submitLabel}
        </Button>
        {onBack ? (
          <Button variant="ghost" block onClick={onBack}>
            Back
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function ContactOption({
  type,
  label,
  icon: Icon,
  checked,
  disabled = false,
  onSelect,
}: {
  type: ContactType;
  label: string;
  icon: LucideIcon;
  checked: boolean;
  disabled?: boolean;
  onSelect: (type: ContactType) => void;
}) {
  const look = disabled
    ? 'cursor-not-allowed border border-stone-200 bg-stone-100 text-stone-400'
    : checked
      ? 'cursor-pointer border-2 border-brand-500 bg-brand-50 text-brand-700'
      : 'cursor-pointer border border-stone-300 bg-white text-stone-700 hover:bg-stone-50';
  return (
    <label
      className={`flex min-h-11 items-center justify-center gap-2 rounded-xl px-3 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500 ${look}`}
    >
      <input
        type="radio"
        name="contactType"
        value={type}
        checked={checked}
        disabled={disabled}
        onChange={() => onSelect(type)}
        className="sr-only"
        aria-describedby={disabled ? WHATSAPP_NOTE_ID : undefined}
      />
      <Icon className="size-4" aria-hidden />
      {label}
    </label>
  );
}
