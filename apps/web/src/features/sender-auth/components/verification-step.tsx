import { CODE_LENGTH, SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CodeInput } from '../../../components/ui/code-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSendEmailCode } from '../api/send-email.ts';
import { useVerifyEmailCode } from '../api/verify-email.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { EmailAddress } from '../../../components/ui/email-address.tsx';

export interface VerificationStepProps {
  email: string;
  resendAvailableAt: number;
  onResendCooldown: (until: number) => void;
  onVerified: (result: { isNewUser: boolean; firstName: string | null }) => void;
  onChangeEmail: () => void;
}

/** The six-digit code sent to the sender's e-mail; a correct code sets the sender's session cookie. */
export function VerificationStep({
  email,
  resendAvailableAt,
  onResendCooldown,
  onVerified,
  onChangeEmail,
}: VerificationStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyEmailCode();
  const resend = useSendEmailCode();
  const secondsLeft = useCountdown(resendAvailableAt);

  const doVerify = (value: string) => {
    if (value.length !== CODE_LENGTH || verify.isPending) return;
    setError(null);
    verify.mutate(
      { email, code: value, type: 'sender' },
      {
        onSuccess: (res) => onVerified({ isNewUser: res.isNewUser, firstName: res.firstName }),
        onError: (err) => {
          setError(err.message);
          toast.error(err.message);
          setCode('');
        },
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    doVerify(code);
  };

  const doResend = () => {
    setError(null);
    resend.mutate(
      { email, type: 'sender' },
      {
        onSuccess: (res) => {
          toast.success('Verification code sent to your email!');
          onResendCooldown(Date.now() + (res.resendAfter || SENDER_RESEND_COOLDOWN_S) * 1000);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 429) {
            onResendCooldown(Date.now() + (err.retryAfter ?? SENDER_RESEND_COOLDOWN_S) * 1000);
            toast.error(err.message);
            return;
          }
          const text =
            err instanceof ApiError && err.code !== 'network_error'
              ? err.message
              : 'Failed to resend verification code.';
          toast.error(text);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Check your e-mail</h1>
        <p className="mt-2 text-stone-600">
          We sent a 6-digit code to{' '}
          {/* A line of its own: on a phone the whole address fits there, or breaks only after the "@". */}
          <EmailAddress email={email} className="block font-semibold text-stone-900" />
        </p>
      </div>

      <CodeInput
        length={CODE_LENGTH}
        value={code}
        onChange={setCode}
        onComplete={doVerify}
        disabled={verify.isPending}
        autoFocus
      />

      {error ? <Alert>{error}</Alert> : null}

      <Button type="submit" block disabled={code.length !== CODE_LENGTH || verify.isPending}>
        {verify.isPending ? 'Verifying…' : 'Verify'}
      </Button>

      <div className="flex flex-col items-center gap-2 text-sm">
        {secondsLeft > 0 ? (
          <p className="text-stone-500" aria-live="polite">
            Resend code in {secondsLeft}s
          </p>
        ) : (
          <Button variant="ghost" onClick={doResend} disabled={resend.isPending}>
            {resend.isPending ? 'Sending…' : 'Resend code'}
          </Button>
        )}
        <Button variant="ghost" onClick={onChangeEmail}>
          Use a different e-mail
        </Button>
      </div>
    </form>
  );
}
