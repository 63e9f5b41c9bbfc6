import { Suspense, useEffect, useState } from 'react';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import { EmailStep } from './email-step.tsx';

// The code step loads on the visitor's first interaction with the e-mail step (decision 046).
const { Part: VerifyStep, preload: preloadVerifyStep } = lazyPart(() => import('./verify-step.tsx').then((m) => m.VerifyStep));

type Step = { name: 'email' } | { name: 'verify'; email: string; resendAvailableAt: number };

/** /scan: a recipient proves their e-mail with a one-time code, then goes on to scan their gift. */
export function RecipientAccessPage() {
  const [step, setStep] = useState<Step>({ name: 'email' });
  const [email, setEmail] = useState(() => readString('session', RECIPIENT_KEYS.recipientEmail) ?? '');
  useEffect(() => onFirstInteraction(preloadVerifyStep), []);

  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-14">
      <div className="rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        {step.name === 'email' ? (
          <EmailStep
            initialEmail={email}
            onCodeSent={(sentTo, resendAvailableAt) => {
              setEmail(sentTo);
              setStep({ name: 'verify', email: sentTo, resendAvailableAt });
            }}
          />
        ) : (
          <Suspense fallback={<PageSpinner />}>
            <VerifyStep
              email={step.email}
              resendAvailableAt={step.resendAvailableAt}
              onResendCooldown={(until) => setStep({ ...step, resendAvailableAt: until })}
              onBack={() => setStep({ name: 'email' })}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}
