import { Email } from '@giftlens/contract/common';
import { RECIPIENT_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { Gift } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { RECIPIENT_KEYS, writeString } from '../../../lib/recipient-storage.ts';
import { useCheckEmail } from '../api/check-email.ts';
import { useSendRecipientOtp } from '../api/send-recipient-otp.ts';
import { saysNotFound, type GiftNotFoundState, type GiftNotReadyState } from '../lib/outcomes.ts';
import { errorText } from '../../../lib/user-text.ts';

interface EmailStepProps {
  initialEmail: string;
  /** A code is on its way (or one was sent moments ago): go on to the code step. */
  onCodeSent: (email: string, resendAvailableAt: number) => void;
}

/** Step one of /scan: "Let's begin!" — the e-mail the gift was addressed to. */
export function EmailStep({ initialEmail, onCodeSent }: EmailStepProps) {
  const navigate = useNavigate();
  const [email, setEmail] = useState(initialEmail);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checkEmail = useCheckEmail();
  const sendOtp = useSendRecipientOtp();
  const valid = Email.safeParse(email).success;
  const busy = checkEmail.isPending || sendOtp.isPending;

  const notFound = (message: string) => {
    const state: GiftNotFoundState = { message };
    void navigate(paths.giftNotFound.href(), { state });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!valid) {
      setError(null);
      return;
    }
    if (busy) return;
    setError(null);
    try {
      const check = await checkEmail.mutateAsync(email);
      if (!check.exists) {
        const reason = check.message || texts.recipient.noActiveGifts;
        if (saysNotFound(check.message)) return notFound(reason);
        const state: GiftNotReadyState = { reason };
        void navigate(paths.giftNotReady.href(), { state });
        return;
      }
    } catch (err) {
      const message = errorText(err, texts.recipient.verifyEmailFailed);
      if (saysNotFound(message)) return notFound(message);
      setError(message);
      toast.error(message);
      return;
    }
    try {
      const sent = await sendOtp.mutateAsync({ email, fallbackError: texts.recipient.sendCodeFailed });
      toast.success(texts.recipient.codeSent);
      writeString('session', RECIPIENT_KEYS.recipientEmail, email);
      onCodeSent(email, Date.now() + (sent.resendAfter || RECIPIENT_RESEND_COOLDOWN_S) * 1000);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        // A code was sent moments ago: enter that one; resend opens when the server allows.
        toast.info(err.message);
        writeString('session', RECIPIENT_KEYS.recipientEmail, email);
        onCodeSent(email, Date.now() + (err.retryAfter ?? RECIPIENT_RESEND_COOLDOWN_S) * 1000);
        return;
      }
      const message = errorText(err, texts.recipient.sendCodeFailed);
      setError(message);
      toast.error(message);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-6">
      <div className="flex flex-col items-center gap-3 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Gift className="size-7" aria-hidden />
        </span>
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Let&apos;s begin!</h1>
        <p className="text-stone-600">
          Enter the e-mail address your gift was sent to. We&apos;ll e-mail you a code to unlock your message.
        </p>
      </div>

      <TextField
        label="Email address"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value.toLowerCase())}
        onBlur={() => setTouched(email !== '')}
        error={touched && !valid ? texts.recipient.invalidEmail : undefined}
        required
      />

      {error ? <Alert>{error}</Alert> : null}

      <Button type="submit" block disabled={busy}>
        {checkEmail.isPending ? 'Checking…' : sendOtp.isPending ? 'Sending code…' : 'Continue'}
      </Button>
    </form>
  );
}
