import { GiftId } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { CircleAlert, Sparkles } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { GiftBrandLine } from '../../../components/gift-brand.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { GiftNotReadyPanel } from '../../../components/ui/gift-not-ready-panel.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { StepCards } from '../../../components/ui/step-cards.tsx';
import { SCAN_STEPS } from '../../../camera/scan-steps.ts';
import { useVerifyGift, verifyGiftErrorText } from '../api/verify-gift.ts';

/** /sharelink/{giftId}: the link a sender shares. Checks the gift, greets the recipient and starts the scan. */
export function ShareLinkPage() {
  const { giftId = '' } = useParams();
  const navigate = useNavigate();
  const validId = GiftId.safeParse(giftId).success;
  const gift = useVerifyGift(validId ? giftId : undefined);
  // The answer repeats the flag as is_active (the specification names both); the server sets them alike.
  const active = gift.data ? gift.data.giftDetails.isActive : null;

  useEffect(() => {
    // The id dedupes the toast when React runs effects twice in development.
    if (active === false) toast.error(texts.recipient.giftNotReadyToast, { id: 'gift-not-ready' });
  }, [active]);

  if (!validId) return <LinkFailure message={texts.recipient.invalidGiftLink} />;
  if (gift.isPending) return <PageSpinner label="Checking your gift…" />;
  if (gift.isError) return <LinkFailure message={verifyGiftErrorText(gift.error)} />;
  if (!active) return <GiftNotReadyPanel reason={texts.recipient.giftNotReady} />;
  if (gift.data.giftDetails.preparing) return <GiftNotReadyPanel reason={texts.recipient.giftPreparing} />;

  const name = gift.data.giftDetails.recipientName.trim() || 'there';
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-14">
      <div className="flex flex-col items-center gap-3 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Sparkles className="size-8" aria-hidden />
        </span>
        <h1 className="text-3xl font-bold tracking-tight break-words text-stone-900 sm:text-4xl">
          Hi {name}!
        </h1>
        <p className="max-w-md text-stone-600">
          Someone special left a personal message on your gift. Scan the gift with your camera to reveal it.
        </p>
        <GiftBrandLine giftId={giftId} />
      </div>

      <div className="mt-6 flex justify-center">
        <Button
          onClick={() => void navigate(paths.scanningCamera.href(giftId, 'direct'))}
          className="w-full px-8 text-lg sm:w-auto"
        >
          <Sparkles className="size-5" aria-hidden />
          Start the Magic
        </Button>
      </div>

      <StepCards steps={SCAN_STEPS} columns={3} />
    </div>
  );
}

function LinkFailure({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <StatusPanel
      tone="error"
      icon={<CircleAlert className="size-8" aria-hidden />}
      title="We couldn't open this gift"
      actions={
        <Button block onClick={() => void navigate(paths.home.href())}>
          Return to Home
        </Button>
      }
    >
      <p role="alert">{message}</p>
    </StatusPanel>
  );
}
