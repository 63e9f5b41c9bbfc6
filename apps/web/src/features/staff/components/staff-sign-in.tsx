import { CODE_LENGTH } from '@giftlens/contract/constants';
import { Email } from '@giftlens/contract/common';
import { staffTexts, type StaffVerifyResponse } from '@giftlens/contract/staff';
import { texts } from '@giftlens/contract/texts';
import { ShieldCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CodeInput } from '../../../components/ui/code-input.tsx';
import { EmailAddress } from '../../../components/ui/email-address.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useFocusHeading } from '../../../lib/use-focus.ts';
import {
  useStaffSendCode,
  useStaffSignedIn,
  useStaffTotpConfirm,
  useStaffVerify,
} from '../api/staff-auth.ts';

const TOTP_LENGTH = 6;

type Enrolment = NonNullable<StaffVerifyResponse['totpEnrolment']>;
type Step =
  | { name: 'email' }
  | { name: 'code' }
  | { name: 'totp'; code: string }
  | { name: 'enrol'; enrolment: Enrolment };

/** The base32 secret in groups of four, for typing into an authenticator by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * /staff without a staff session: the e-mail, the code sent to it, then the authenticator's code — or, on the
 * first sign-in, the authenticator's enrolment (QR code and secret) confirmed with its first code.
 */
export function StaffSignIn() {
  const [step, setStep] = useState<Step>({ name: 'email' });
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const secondsLeft = useCountdown(resendAt);
  const sendCode = useStaffSendCode();
  const verify = useStaffVerify();
  const confirm = useStaffTotpConfirm();
  const signedIn = useStaffSignedIn();
  const container = useRef<HTMLDivElement>(null);
  useFocusHeading(container, step.name);

  const go = (next: Step) => {
    setError(null);
    setCode('');
    setStep(next);
  };

  /** Asks for a code; a code sent moments ago (429) is still good: its step shows, with the wait for another. */
  const requestCode = () => {
    setError(null);
    sendCode.mutate(email, {
      onSuccess: (res) => {
        setResendAt(Date.now() + res.resendAfter * 1000);
        go({ name: 'code' });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 429 && err.retryAfter !== undefined) {
          setResendAt(Date.now() + err.retryAfter * 1000);
          go({ name: 'code' });
        }
        setError(err.message);
      },
    });
  };

  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    if (!Email.safeParse(email).success) return setError(texts.sender.invalidEmail);
    requestCode();
  };

  const onVerified = (res: StaffVerifyResponse, emailCode: string) => {
    if (res.signedIn) return void signedIn();
    if (res.totpEnrolment) return go({ name: 'enrol', enrolment: res.totpEnrolment });
    if (res.totpRequired) return go({ name: 'totp', code: emailCode });
    setError(texts.sender.generic);
  };

  const submitCode = (value: string) => {
    if (value.length !== CODE_LENGTH || verify.isPending) return;
    setError(null);
    verify.mutate(
      { email, code: value },
      {
        onSuccess: (res) => onVerified(res, value),
        onError: (err) => {
          setError(err.message);
          setCode('');
        },
      },
    );
  };

  const submitTotp = (value: string) => {
    if (value.length !== TOTP_LENGTH || verify.isPending || confirm.isPending) return;
    setError(null);
    const onError = (err: Error) => {
      setError(err.message);
      setCode('');
    };
    if (step.name === 'enrol') {
      confirm.mutate(value, { onSuccess: () => void signedIn(), onError });
    } else if (step.name === 'totp') {
      verify.mutate(
        { email, code: step.code, totp: value },
        { onSuccess: (res) => onVerified(res, step.code), onError },
      );
    }
  };

  const pending = sendCode.isPending || verify.isPending || confirm.isPending;
  const startAgain = (
    <Button variant="ghost" onClick={() => go({ name: 'email' })}>
      Start again
    </Button>
  );

  return (
    <div ref={container} className="px-4 py-8 sm:py-14">
      <title>Staff sign-in · GiftLens</title>
      <section className="mx-auto flex max-w-md flex-col gap-6 rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        <div className="flex flex-col items-center gap-2 text-center">
          <ShieldCheck className="size-8 text-brand-600" aria-hidden />
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">
            {staffTexts.signInTitle}
          </p>
        </div>

        {step.name === 'email' ? (
          <form onSubmit={submitEmail} noValidate className="flex flex-col gap-5">
            <div className="text-center">
              <h1 className="text-2xl font-bold tracking-tight text-stone-900">Staff sign-in</h1>
              <p className="mt-2 text-stone-600">{staffTexts.staffOnly}</p>
            </div>
            <TextField
              label="Staff e-mail"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value.trim().toLowerCase())}
              required
              autoFocus
            />
            {error ? <Alert>{error}</Alert> : null}
            <Button type="submit" block disabled={pending}>
              {sendCode.isPending ? 'Sending code…' : 'Send code'}
            </Button>
          </form>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (step.name === 'code') submitCode(code);
              else submitTotp(code);
            }}
            noValidate
            className="flex flex-col gap-5"
          >
            {step.name === 'code' ? (
              <div className="text-center">
                <h1 className="text-2xl font-bold tracking-tight text-stone-900">Check your e-mail</h1>
                <p className="mt-2 text-stone-600">
                  If this address is a staff address, a 6-digit code is on its way to{' '}
                  <EmailAddress email={email} className="block font-semibold text-stone-900" />
                </p>
              </div>
            ) : step.name === 'totp' ? (
              <div className="text-center">
                <h1 className="text-2xl font-bold tracking-tight text-stone-900">Authenticator code</h1>
                <p className="mt-2 text-stone-600">{staffTexts.totpRequired}</p>
              </div>
            ) : (
              <div className="flex flex-col items-center gap-3 text-center">
                <h1 className="text-2xl font-bold tracking-tight text-stone-900">
                  Set up your authenticator
                </h1>
                <p className="text-stone-600">
                  Scan this QR code with your authenticator app, then enter the 6-digit code it shows.
                </p>
                <img
                  src={step.enrolment.qrCode}
                  alt="QR code for your authenticator app"
                  width={200}
                  height={200}
                  className="size-50 rounded-xl border border-stone-200 bg-white p-2"
                />
                <div className="w-full">
                  <p className="text-sm text-stone-600">Or type this key into the app:</p>
                  <p
                    className="mt-1 font-mono text-base font-semibold break-all text-stone-900 select-all"
                    aria-label="Set-up key"
                    data-testid="totp-secret"
                    data-secret={step.enrolment.secret}
                  >
                    {grouped(step.enrolment.secret)}
                  </p>
                </div>
              </div>
            )}

            <CodeInput
              key={step.name}
              length={step.name === 'code' ? CODE_LENGTH : TOTP_LENGTH}
              value={code}
              onChange={setCode}
              onComplete={step.name === 'code' ? submitCode : submitTotp}
              disabled={pending}
              autoFocus={step.name !== 'enrol'}
            />
            {error ? <Alert>{error}</Alert> : null}
            <Button type="submit" block disabled={code.length !== 6 || pending}>
              {pending ? 'Checking…' : step.name === 'enrol' ? 'Confirm and sign in' : 'Verify'}
            </Button>
            <div className="flex flex-col items-center">
              {step.name === 'code' ? (
                secondsLeft > 0 ? (
                  <p className="py-2 text-sm text-stone-500">Send a new code in {secondsLeft}s</p>
                ) : (
                  <Button variant="ghost" onClick={requestCode} disabled={pending}>
                    {sendCode.isPending ? 'Sending…' : 'Send a new code'}
                  </Button>
                )
              ) : null}
              {startAgain}
            </div>
          </form>
        )}
      </section>
    </div>
  );
}
