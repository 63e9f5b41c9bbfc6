import { SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { Email } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { Mail, MessageCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSendEmailCode } from '../api/send-email.ts';

export interface EmailStepProps {
  initialEmail: string;
  /** Called once a code is on its way (or the server says one was sent moments ago). */
  onCodeSent: (email: string, resendAvailableAt: number) => void;
  /** The screen's heading and line below it (the wizard's start screen by default). */
  title?: string;
  intro?: string;
}

/** The sender's e-mail, then a six-digit code is sent to it (the wizard's first step, and My Gifts' sign-in). */
export function EmailStep({
  initialEmail,
  onCodeSent,
  title = 'Start Your Gift Journey',
  intro = 'Verify your e-mail to attach a personal message to your gift.',
}: EmailStepProps) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const sendCode = useSendEmailCode();
  const valid = Email.safeParse(email).success;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || sendCode.isPending) return;
    setError(null);
    sendCode.mutate(
      { email, type: 'sender' },
      {
        onSuccess: (res) => {
          toast.success('Verification code sent to your email!');
          onCodeSent(email, Date.now() + (res.resendAfter || SENDER_RESEND_COOLDOWN_S) * 1000);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 429) {
            // A code was sent moments ago: go on and enter it, with the cooldown the server gave.
            toast.info(err.message);
            onCodeSent(email, Date.now() + (err.retryAfter ?? SENDER_RESEND_COOLDOWN_S) * 1000);
            return;
          }
          setError(err.message);
          toast.error(err.message);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">{title}</h1>
        <p className="mt-2 text-stone-600">{intro}</p>
      </div>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-stone-800">How should we verify you?</legend>
        <div className="grid grid-cols-2 gap-2">
          <label className="flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-xl border-2 border-brand-500 bg-brand-50 px-3 py-2 font-semibold text-brand-700 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600">
            <input type="radio" name="verificationType" value="email" defaultChecked className="sr-only" />
            <Mail className="size-4" aria-hidden />
            Email
          </label>
          <label className="flex min-h-11 cursor-not-allowed items-center justify-center gap-2 rounded-xl border border-stone-200 bg-stone-100 px-3 py-2 font-semibold text-stone-400">
            <input
              type="radio"
              name="verificationType"
              value="whatsapp"
              disabled
              aria-describedby="whatsapp-note"
              className="sr-only"
            />
            <MessageCircle className="size-4" aria-hidden />
            WhatsApp
          </label>
        </div>
        <p id="whatsapp-note" className="text-xs text-stone-500">
          WhatsApp verification is not available yet. Please use your e-mail.
        </p>
      </fieldset>

      <TextField
        label="Email address"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value.toLowerCase())}
        onBlur={() => setTouched(true)}
        error={touched && email !== '' && !valid ? texts.sender.invalidEmail : undefined}
        required
      />

      {error ? <Alert>{error}</Alert> : null}

      <Button type="submit" block disabled={!valid || sendCode.isPending}>
        {sendCode.isPending ? 'Sending code…' : 'Continue'}
      </Button>
    </form>
  );
}
