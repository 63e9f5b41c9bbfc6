import { Camera, Hand, Package, Sparkles, Sun } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { RECIPIENT_KEYS, readString, writeString } from '../../../lib/recipient-storage.ts';
import { useRecipientName } from '../api/get-recipient.ts';

const STEPS = [
  { icon: Sun, title: 'Find good light', text: 'Place the gift in a well-lit area with a plain background.' },
  { icon: Package, title: 'Unwrap it', text: 'Remove wrapping or packaging that could interfere.' },
  { icon: Camera, title: 'Capture', text: 'Center the gift in the frame and tap capture.' },
  { icon: Hand, title: 'Hold steady', text: 'Hold steady while we process your scan.' },
] as const;

/** /scanning-instructions/{recipientId}: greets the recipient by name and explains the scan. */
export function ScanningInstructionsPage() {
  const { recipientId = '' } = useParams();
  const [params] = useSearchParams();
  const direct = params.get('type') === 'direct';
  const navigate = useNavigate();
  const recipient = useRecipientName(recipientId || undefined);
  const name = recipient.data?.name.trim() || 'there';

  useEffect(() => {
    if (recipientId && !readString('session', RECIPIENT_KEYS.recipientId)) {
      writeString('session', RECIPIENT_KEYS.recipientId, recipientId);
    }
  }, [recipientId]);

  const start = () => {
    const id = recipientId || readString('session', RECIPIENT_KEYS.recipientId);
    if (!id) return void navigate(paths.scan.href());
    void navigate(paths.scanningCamera.href(id, direct ? 'direct' : undefined));
  };

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-14">
      <div className="flex flex-col items-center gap-3 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Sparkles className="size-8" aria-hidden />
        </span>
        <h1 className="text-3xl font-bold tracking-tight break-words text-stone-900 sm:text-4xl">
          {recipient.isPending && recipientId ? <span className="text-stone-400">Hi…</span> : `Hi ${name}!`}
        </h1>
        <p className="max-w-md text-stone-600">
          A personal message is waiting on your gift. Here is how to reveal it in a few seconds.
        </p>
      </div>

      <ol className="mt-8 grid gap-3 sm:grid-cols-2 sm:gap-4">
        {STEPS.map((s, i) => (
          <li key={s.title} className="flex gap-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <s.icon className="size-6" aria-hidden />
            </span>
            <div>
              <p className="text-xs font-semibold tracking-wide text-brand-600 uppercase">Step {i + 1}</p>
              <h2 className="font-semibold text-stone-900">{s.title}</h2>
              <p className="mt-1 text-sm text-stone-600">{s.text}</p>
            </div>
          </li>
        ))}
      </ol>

      <div className="mt-8 flex justify-center">
        <Button onClick={start} className="w-full px-8 text-lg sm:w-auto">
          <Sparkles className="size-5" aria-hidden />
          Start the Magic
        </Button>
      </div>
    </div>
  );
}
