import { Suspense, useEffect, useState } from 'react';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { EmailStep } from './email-step.tsx';

// The code step loads on the visitor's first interaction with the e-mail step (decision 046), as on /scan.
const { Part: VerificationStep, preload: preloadVerificationStep } = lazyPart(() =>
  import('./verification-step.tsx').then((m) => m.VerificationStep),
);

export interface SignedIn {
  email: string;
  isNewUser: boolean;
  firstName: string | null;
}

/**
 * Sign-in for a sender without a session (My Gifts): the e-mail, then the six-digit code, with the same calls,
 * texts, resend cooldown and errors as the wizard's first two steps. On success the server has set the session.
 */
export function SenderSignIn({
  title,
  intro,
  onSignedIn,
}: {
  title: string;
  intro: string;
  onSignedIn: (result: SignedIn) => void;
}) {
  const [step, setStep] = useState<'email' | 'verification'>('email');
  const [email, setEmail] = useState('');
  const [resendAvailableAt, setResendAvailableAt] = useState(0);
  useEffect(() => onFirstInteraction(preloadVerificationStep), []);

  return (
    <div className="px-4 py-6 sm:py-10">
      <section className="mx-auto max-w-lg rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        {step === 'email' ? (
          <EmailStep
            title={title}
            intro={intro}
            initialEmail={email}
            onCodeSent={(address, until) => {
              setEmail(address);
              setResendAvailableAt(until);
              setStep('verification');
            }}
          />
        ) : (
          <Suspense fallback={<PageSpinner />}>
            <VerificationStep
              email={email}
              resendAvailableAt={resendAvailableAt}
              onResendCooldown={setResendAvailableAt}
              onChangeEmail={() => setStep('email')}
              onVerified={(result) => onSignedIn({ email, ...result })}
            />
          </Suspense>
        )}
      </section>
    </div>
  );
}
