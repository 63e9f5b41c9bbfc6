import { texts } from '@giftlens/contract/texts';
import { Lock } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useFocusHeading } from '../../../lib/use-focus.ts';
import { useCheckoutGift, type BackgroundUpload } from '../hooks/use-checkout-gift.ts';
import { GiftSummaryCard } from './gift-summary-card.tsx';
import { PayPanel } from './pay-panel.tsx';

export type { BackgroundUpload } from '../hooks/use-checkout-gift.ts';

export function CheckoutPage({ giftId, upload }: { giftId: string; upload: BackgroundUpload | undefined }) {
  const { gift, uploading } = useCheckoutGift(giftId, upload);

  if (gift.isPending) return <PageSpinner label="Loading your gift…" />;
  if (gift.isError) {
    return (
      <Shell>
        <Alert>{gift.error.message}</Alert>
        <Link to={paths.send.href()} className="font-semibold text-brand-600 underline">
          Start a new gift
        </Link>
      </Shell>
    );
  }

  const g = gift.data;

  return (
    <Shell>
      <div className="grid gap-6 md:grid-cols-[1fr_1fr]">
        <GiftSummaryCard gift={g} uploading={uploading} />
        <section aria-labelledby="payment-heading" className="flex flex-col gap-4 rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
          <h2 id="payment-heading" className="text-lg font-bold text-stone-900">
            Payment
          </h2>
          <div className="flex items-baseline justify-between border-b border-stone-100 pb-3">
            <span className="text-stone-600">Total</span>
            <span className="text-2xl font-extrabold text-stone-900">{formatMoney(g.plan.amountMinor, g.plan.currency)}</span>
          </div>
          {g.status === 'active' ? (
            <>
              <Alert tone="success">{texts.sender.giftAlreadyPaid}</Alert>
              <Link to={paths.share.href(giftId)} className="font-semibold text-brand-600 underline">
                Share your gift link
              </Link>
            </>
          ) : uploading && upload ? (
            <UploadProgress progress={upload.progress} />
          ) : upload?.phase === 'failed' && g.status === 'draft' ? (
            <>
              <Alert>Upload failed: {upload.error}</Alert>
              <Link to={paths.message.href(giftId)} className="font-semibold text-brand-600 underline">
                Back to your message
              </Link>
            </>
          ) : g.status === 'draft' ? (
            <>
              <Alert tone="warning">{texts.sender.giftNotReadyForPayment}</Alert>
              <Link to={paths.message.href(giftId)} className="font-semibold text-brand-600 underline">
                Add your message
              </Link>
            </>
          ) : (
            <PayPanel giftId={giftId} />
          )}
          <p className="flex items-center gap-1.5 text-xs text-stone-500">
            <Lock className="size-3.5" aria-hidden /> Prices are set by GiftLens; you pay once per gift.
          </p>
        </section>
      </div>
    </Shell>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const shell = useRef<HTMLDivElement>(null);
  // Arriving from the message step, focus would otherwise be left on <body>.
  useFocusHeading(shell, null, { onMount: true });
  return (
    <div ref={shell} className="px-4 py-6 sm:py-10">
      <div className="mx-auto flex max-w-4xl flex-col gap-6">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Checkout</h1>
        {children}
      </div>
    </div>
  );
}

function UploadProgress({ progress }: { progress: number }) {
  return (
    <div className="flex flex-col gap-2 rounded-2xl bg-stone-50 p-4">
      <p className="text-sm font-medium text-stone-800">Your message is still uploading… {progress}%</p>
      <ProgressBar value={progress} label="Message upload progress" className="h-2" />
      <p className="text-xs text-stone-500">You can pay as soon as it has finished.</p>
      <Button block disabled>
        Pay
      </Button>
    </div>
  );
}
