import { GROUP_MIN_DEADLINE_MS, groupTexts, type GroupState } from '@giftlens/contract/group-gifts';
import { Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FieldShell, useFieldIds } from '../../../components/ui/field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { toast } from '../../../lib/toast.ts';
import { useInvite } from '../api/organizer.ts';
import { groupErrorText } from '../lib/group-text.ts';
import { deadlineInstant, initialDeadline, parseEmails, toLocalInput } from '../lib/invite-input.ts';

/** Invite by e-mail: several addresses at once, and the deadline (three days unless changed). */
export function InviteForm({ giftId, group }: { giftId: string; group: GroupState }) {
  const invite = useInvite(giftId);
  const [emails, setEmails] = useState('');
  const [deadline, setDeadline] = useState(() => initialDeadline(group.deadline, new Date()));
  // The error, and the field it is about (none for the server's refusal of the whole request).
  const [error, setError] = useState<{ text: string; field: 'emails' | 'deadline' | null } | null>(null);
  const [earliest] = useState(() => toLocalInput(new Date(Date.now() + GROUP_MIN_DEADLINE_MS)));
  const ids = useFieldIds(undefined, { hint: true });
  const deadlineIds = useFieldIds(undefined, { hint: true });
  // Announced when it appears (an alert), and tied to its field, which says it is invalid (WCAG 3.3.1, 1.3.1).
  const errorId = useId();
  const describedBy = (own: string | undefined, field: 'emails' | 'deadline') =>
    [own, error?.field === field ? errorId : null].filter(Boolean).join(' ') || undefined;
  const invalid = (field: 'emails' | 'deadline') => (error?.field === field ? true : undefined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseEmails(emails);
    if (parsed.invalid.length > 0)
      return setError({ text: `Please check these addresses: ${parsed.invalid.join(', ')}`, field: 'emails' });
    if (parsed.emails.length === 0) return setError({ text: groupTexts.emailsRequired, field: 'emails' });
    const instant = deadlineInstant(deadline);
    if (!instant) return setError({ text: groupTexts.deadlineInvalid, field: 'deadline' });
    if (Date.parse(instant) < Date.now() + GROUP_MIN_DEADLINE_MS)
      return setError({ text: groupTexts.deadlineTooSoon, field: 'deadline' });
    setError(null);
    invite.mutate(
      { emails: parsed.emails, deadline: instant },
      {
        onSuccess: (res) => {
          setEmails('');
          const n = res.invitations.length;
          toast.success(n === 1 ? 'Invitation sent.' : `${n} invitations sent.`);
        },
        onError: (err) => setError({ text: groupErrorText(err), field: null }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Invite contributors">
      <FieldShell {...ids} label="E-mail addresses" hint="One per line, or separated by commas.">
        <textarea
          id={ids.controlId}
          rows={3}
          value={emails}
          onChange={(e) => setEmails(e.target.value)}
          aria-describedby={describedBy(ids.describedBy, 'emails')}
          aria-invalid={invalid('emails')}
          autoComplete="off"
          placeholder={'asha@example.com\nravi@example.com'}
          className="w-full resize-y rounded-xl border border-stone-300 bg-white px-3.5 py-3 text-base text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
        />
      </FieldShell>
      <TextField
        id={deadlineIds.controlId}
        label="Contributions close"
        type="datetime-local"
        value={deadline}
        min={earliest}
        onChange={(e) => setDeadline(e.target.value)}
        hint="Three days from now unless you choose another time."
        aria-describedby={describedBy(deadlineIds.describedBy, 'deadline')}
        aria-invalid={invalid('deadline')}
      />
      {error ? <Alert id={errorId}>{error.text}</Alert> : null}
      <Button type="submit" disabled={invite.isPending}>
        <Send className="size-4" aria-hidden />
        {invite.isPending ? 'Sending…' : 'Send invitations'}
      </Button>
    </form>
  );
}
