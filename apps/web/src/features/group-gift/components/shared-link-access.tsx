import { Email } from '@giftlens/contract/common';
import { CODE_LENGTH } from '@giftlens/contract/constants';
import { contributePath } from '@giftlens/contract/group-gifts';
import { Suspense, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { sendContributionCode, verifyContributionCode } from '../api/contributor.ts';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { groupErrorText } from '../lib/group-text.ts';

// The code boxes show only after the e-mail step: loaded on the first interaction, not with the page (decision 046;
// a per-person link never needs them).
const { Part: CodeInput, preload: preloadCodeInput } = lazyPart(() => import('../../../components/ui/code-input.tsx').then((m) => m.CodeInput));

/**
 * The shared invitation link: whoever opens it confirms an e-mail with a code first, and then goes on with their
 * own per-person link (which replaces the shared one in the history).
 */
export function SharedLinkAccess({ token }: { token: string }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => onFirstInteraction(preloadCodeInput), []);

  const sendCode = async (e?: FormEvent) => {
    e?.preventDefault();
    const address = email.trim();
    if (!Email.safeParse(address).success) return setError('Please enter a valid e-mail address.');
    setBusy(true);
    setError(null);
    try {
      await sendContributionCode(token, address);
      setSentTo(address);
      setCode('');
    } catch (err) {
      setError(groupErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (value: string) => {
    if (!sentTo || value.length !== CODE_LENGTH) return;
    setBusy(true);
    setError(null);
    try {
      const res = await verifyContributionCode(token, sentTo, value);
      void navigate(contributePath(res.token), { replace: true });
    } catch (err) {
      setError(groupErrorText(err));
      setCode('');
      setBusy(false);
    }
  };

  if (!sentTo) {
    return (
      <form onSubmit={(e) => void sendCode(e)} noValidate className="flex flex-col gap-4">
        <p className="text-stone-700">First, confirm your e-mail address: we send you a code.</p>
        <TextField
          label="Your e-mail"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {error ? <Alert>{error}</Alert> : null}
        <Button type="submit" block disabled={busy}>
          {busy ? 'Sending…' : 'Send me a code'}
        </Button>
      </form>
    );
  }

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void verify(code);
      }}
      className="flex flex-col gap-4"
      aria-label="Enter your code"
    >
      <p className="text-stone-700" aria-live="polite">
        We sent a {CODE_LENGTH}-digit code to <span className="font-semibold break-all">{sentTo}</span>.
      </p>
      <Suspense fallback={<div className="min-h-14" />}>
        <CodeInput length={CODE_LENGTH} value={code} onChange={setCode} onComplete={(v) => void verify(v)} disabled={busy} autoFocus />
      </Suspense>
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" block disabled={busy || code.length !== CODE_LENGTH}>
        {busy ? 'Checking…' : 'Continue'}
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <Button variant="ghost" size="sm" onClick={() => setSentTo(null)} disabled={busy}>
          Use another e-mail
        </Button>
        <Button variant="ghost" size="sm" onClick={() => void sendCode()} disabled={busy}>
          Send a new code
        </Button>
      </div>
    </form>
  );
}
