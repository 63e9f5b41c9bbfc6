import { Sparkles } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { GiftBrandLine } from '../../../components/gift-brand.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { StepCards } from '../../../components/ui/step-cards.tsx';
import { HOLD_STEADY_STEP, SCAN_STEPS } from '../../../camera/scan-steps.ts';
import { RECIPIENT_KEYS, readString, writeString } from '../../../lib/recipient-storage.ts';
import { useRecipientName } from '../api/get-recipient.ts';

const STEPS = [...SCAN_STEPS, HOLD_STEADY_STEP];

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
          {recipient.isPending && recipientId ? <span className="text-stone-500">Hi…</span> : `Hi ${name}!`}
        </h1>
        <p className="max-w-md text-stone-600">
          A personal message is waiting on your gift. Here is how to reveal it in a few seconds.
        </p>
        <GiftBrandLine giftId={direct ? recipientId : undefined} />
      </div>

      <div className="mt-6 flex justify-center">
        <Button onClick={start} className="w-full px-8 text-lg sm:w-auto">
          <Sparkles className="size-5" aria-hidden />
          Start the Magic
        </Button>
      </div>

      <StepCards steps={STEPS} columns={2} />
    </div>
  );
}
