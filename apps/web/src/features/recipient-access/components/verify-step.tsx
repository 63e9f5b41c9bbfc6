import { EmailAddress } from '../../../components/ui/email-address.tsx';
import { CODE_LENGTH, RECIPIENT_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CodeInput } from '../../../components/ui/code-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { RECIPIENT_KEYS, writeJson, writeString } from '../../../lib/recipient-storage.ts';
import { useSendRecipientOtp } from '../api/send-recipient-otp.ts';
import { useVerifyRecipientOtp } from '../api/verify-recipient-otp.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { saysNotFound, type GiftNotFoundState, type GiftNotReadyState } from '../lib/outcomes.ts';

interface VerifyStepProps {
  email: string;
  resendAvailableAt: number;
  onResendCooldown: (until: number) => void;
  onBack: () => void;
}

/** Step two of /scan: "Verify Your Email" with six boxes, Back, the 30 s resend countdown and Verify. */
export function VerifyStep({ email, resendAvailableAt, onResendCooldown, onBack }: VerifyStepProps) {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyRecipientOtp();
  const resend = useSendRecipientOtp();
  const secondsLeft = useCountdown(resendAvailableAt);
  const complete = code.length === CODE_LENGTH;

  const notReady = (reason: string) => {
    const state: GiftNotReadyState = { reason };
    void navigate(paths.giftNotReady.href(), { state });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!complete) {
      setError(texts.recipient.incompleteCode);
      return;
    }
    if (verify.isPending) return;
    setError(null);
    verify.mutate(
      { email, code },
      {
        onSuccess: (res) => {
          if (!res.isReady) return notReady(texts.recipient.giftNotReady);
          if (!res.recipientId || res.giftIds.length === 0) return notReady(texts.recipient.noGiftsForEmail);
          writeString('session', RECIPIENT_KEYS.recipientId, res.recipientId);
          writeJson('session', RECIPIENT_KEYS.giftIds, res.giftIds);
          toast.success(texts.recipient.emailVerified);
          void navigate(paths.scanningInstructions.href(res.recipientId));
        },
        onError: (err) => {
          if (saysNotFound(err.message)) {
            const state: GiftNotFoundState = { message: err.message };
            void navigate(paths.giftNotFound.href(), { state });
            return;
          }
          setError(err.message);
          toast.error(err.message);
          setCode('');
        },
      },
    );
  };

  const doResend = () => {
    if (secondsLeft > 0 || resend.isPending) return;
    setError(null);
    resend.mutate(
      { email, fallbackError: texts.recipient.resendFailed },
      {
        onSuccess: (res) => {
          toast.success(texts.recipient.newCodeSent);
          setCode('');
          onResendCooldown(Date.now() + (res.resendAfter || RECIPIENT_RESEND_COOLDOWN_S) * 1000);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 429) {
            onResendCooldown(Date.now() + (err.retryAfter ?? RECIPIENT_RESEND_COOLDOWN_S) * 1000);
          }
          toast.error(err.message);
        },
      },
    );
  };

  // Enter on an incomplete code: the disabled Verify button would swallow it silently, so say why.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && !complete) {
      e.preventDefault();
      setError(texts.recipient.incompleteCode);
    }
  };

  let resendLabel = 'Resend code';
  if (resend.isPending) resendLabel = 'Sending...';
  else if (secondsLeft > 0) resendLabel = `Resend code in ${secondsLeft}s`;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6">
      <div>
        <Button variant="ghost" onClick={onBack} className="-ml-3 px-3">
          <ArrowLeft className="size-4" aria-hidden />
          Back
        </Button>
      </div>
      <div className="flex flex-col items-center gap-3 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <MailCheck className="size-7" aria-hidden />
        </span>
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Verify Your Email</h1>
        <p className="text-stone-600">
          Enter the 6-digit code we sent to
          <EmailAddress email={email} className="block font-semibold text-stone-900" />
        </p>
      </div>

      <div onKeyDown={onKeyDown}>
        <CodeInput
          length={CODE_LENGTH}
          value={code}
          onChange={(v) => {
            setCode(v);
            if (error === texts.recipient.incompleteCode) setError(null);
          }}
          disabled={verify.isPending}
          autoFocus
        />
      </div>

      {error ? <Alert>{error}</Alert> : null}

      <Button type="submit" block disabled={!complete || verify.isPending}>
        {verify.isPending ? 'Verifying…' : 'Verify'}
      </Button>

      <p className="flex flex-wrap items-center justify-center gap-1 text-sm text-stone-600">
        Didn&apos;t get the code?
        <button
          type="button"
          onClick={doResend}
          disabled={secondsLeft > 0 || resend.isPending}
          className="min-h-11 rounded-lg px-2 font-semibold text-brand-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:text-stone-400 disabled:no-underline"
        >
          {resendLabel}
        </button>
      </p>
    </form>
  );
}
