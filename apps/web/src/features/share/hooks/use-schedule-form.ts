import type { ContactType, DeliveriesResponse, Delivery } from '@giftlens/contract/scheduling';
import { texts } from '@giftlens/contract/texts';
import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import {
  browserTimeZone,
  changeDefaults,
  defaultDelivery,
  isInFuture,
  toDateValue,
  toIsoWithOffset,
  toLocalDate,
} from '../../../deliveries/lib/delivery-time.ts';
import { useChangeDelivery } from '../../../deliveries/api/change-delivery.ts';
import { useScheduleDelivery } from '../../../deliveries/api/schedule-delivery.ts';
import { isWhatsAppNumber, normalizeContact } from '../lib/contact.ts';

/** A new delivery (POST), or new time and contact for an existing one (PATCH). */
export type ScheduleMode = { kind: 'new' } | { kind: 'change'; delivery: Delivery };

export interface ScheduleFormOptions {
  giftId: string;
  /** Filled in when e-mail is chosen, until the sender types their own. */
  recipientEmail: string;
  whatsapp: DeliveriesResponse['whatsapp'];
  mode: ScheduleMode;
  onSaved: (when: Date) => void;
}

/** The schedule form's fields, the spec's checks in order, and saving a new or changed delivery. */
export function useScheduleForm({ giftId, recipientEmail, whatsapp, mode, onSaved }: ScheduleFormOptions) {
  const schedule = useScheduleDelivery(giftId);
  const change = useChangeDelivery(giftId);
  const editing = mode.kind === 'change' ? mode.delivery : null;

  const [initial] = useState(() => (editing ? changeDefaults(new Date(editing.scheduledDatetime)) : defaultDelivery()));
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState(initial.time);
  const [chosenType, setChosenType] = useState<ContactType>(editing?.contactType ?? 'email');
  const [email, setEmail] = useState<string | null>(editing?.contactType === 'email' ? editing.recipientContact : null);
  const [phone, setPhone] = useState(editing?.contactType === 'whatsapp' ? editing.recipientContact : '');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [today] = useState(() => toDateValue(new Date()));

  const contactType: ContactType = whatsapp.available ? chosenType : 'email';
  const contactValue = contactType === 'email' ? (email ?? recipientEmail) : phone;
  const when = date && time ? toLocalDate(date, time) : null;
  const saving = schedule.isPending || change.isPending;

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
    if (contactType === 'whatsapp' && !isWhatsAppNumber(recipientContact)) return fail(texts.sender.whatsappNumberInvalid);
    if (!isInFuture(when)) return fail(texts.sender.scheduleFuture);
    setError(null);
    const fields = { recipientContact, contactType, scheduledDatetime: toIsoWithOffset(when), timezone: browserTimeZone() };
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
  const submitLabel = editing ? (saving ? 'Saving...' : 'Save Changes') : saving ? 'Scheduling...' : 'Schedule Delivery';

  return {
    contactType,
    setChosenType,
    contactValue,
    setEmail,
    setPhone,
    date,
    setDate,
    time,
    setTime,
    today,
    when,
    error,
    disabled,
    submitLabel,
    submit,
  };
}
