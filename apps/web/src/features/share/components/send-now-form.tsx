import { Email } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { controlAttributes, useFieldIds } from '../../../components/ui/field.tsx';
import { useSendNow } from '../../../deliveries/api/send-now.ts';
import { announceSendNow } from '../hooks/use-send-now-toasts.ts';
import { browserTimeZone } from '../../../deliveries/lib/delivery-time.ts';

/** 'Send by e-mail now': the server e-mails the link at once; the delivery then shows in the list. */
export function SendNowForm({ giftId, recipientEmail }: { giftId: string; recipientEmail: string }) {
  const send = useSendNow(giftId);
  // The recipient's e-mail from the gift until the sender types their own.
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const ids = useFieldIds(undefined, { error });
  const value = typed ?? recipientEmail;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    if (!value.trim()) return setError(texts.sender.scheduleContactRequired);
    const email = Email.safeParse(value);
    if (!email.success) return setError(texts.sender.invalidEmail);
    setError(undefined);
    send.mutate(
      { giftId, recipientContact: email.data, contactType: 'email', timezone: browserTimeZone() },
      {
        onSuccess: (res) => announceSendNow(res.delivery),
        onError: (err) => toast.error(err.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="send-now-heading" className="flex flex-col gap-2">
      <h3 id="send-now-heading" className="text-sm font-semibold text-stone-900">
        Send by e-mail now
      </h3>
      {/* The heading and the filled-in address say what the field is; its name is for screen readers. */}
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          {...controlAttributes(ids, { error }, 'sm:flex-1')}
          aria-label="Recipient's e-mail"
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder="recipient@example.com"
          value={value}
          onChange={(e) => setTyped(e.target.value.toLowerCase())}
        />
        <Button type="submit" variant="secondary" disabled={send.isPending} className="shrink-0">
          <Send className="size-4" aria-hidden /> {send.isPending ? 'Sending...' : 'Send now'}
        </Button>
      </div>
      {error ? (
        <p id={ids.errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}
