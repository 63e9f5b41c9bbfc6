import { Mail, MessageCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { timeOptions } from '../../../deliveries/lib/delivery-time.ts';
import { formatLongDate, formatTime } from '../../../lib/format.ts';
import { ContactOption, WHATSAPP_NOTE_ID } from './contact-option.tsx';
import { useScheduleForm, type ScheduleFormOptions } from '../hooks/use-schedule-form.ts';

export type { ScheduleMode } from '../hooks/use-schedule-form.ts';

const TIME_OPTIONS = timeOptions();
const WHATSAPP_OFF_NOTE = 'WhatsApp delivery is not available yet, so we’ll send the link by e-mail.';

interface ScheduleFormProps extends ScheduleFormOptions {
  /** A heading that takes focus when the form opens on request (Change, Schedule another delivery). */
  title?: string;
  onBack?: () => void;
}

/** The spec's schedule dialog: channel, contact, date and time (10-minute steps), the 'Scheduled for' preview. */
export function ScheduleForm({ title, onBack, ...options }: ScheduleFormProps) {
  const { whatsapp } = options;
  const form = useScheduleForm(options);
  const { contactType, setChosenType, contactValue, setEmail, setPhone, date, setDate, time, setTime, today, when, error, disabled, submitLabel, submit } = form;

  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

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
