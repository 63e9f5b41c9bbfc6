import { topUpTexts } from '@giftlens/contract/extras-texts';
import { SCAN_TOP_UP_SCANS } from '@giftlens/contract/scan-top-up';
import { ScanLine } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'react-router';
import { useSenderGift } from '../../../api/sender-gift.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useFocusHeading } from '../../../lib/use-focus.ts';
import { PayPanel } from './pay-panel.tsx';

/**
 * /add-scans/{giftId} (issue 40): 5 more scans for the sender's paid gift, through the same checkout as the gift
 * itself; the server prices them in the plan's currency and refuses a gift that has ended or has unlimited scans.
 */
export function AddScansPage({ giftId }: { giftId: string }) {
  const gift = useSenderGift(giftId);
  const shell = useRef<HTMLDivElement>(null);
  useFocusHeading(shell, null, { onMount: true });
  return (
    <div ref={shell} className="px-4 py-6 sm:py-10">
      <div className="mx-auto flex max-w-lg flex-col gap-5">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Add {SCAN_TOP_UP_SCANS} scans</h1>
        {gift.isPending ? (
          <PageSpinner label="Loading your gift…" />
        ) : gift.isError ? (
          <Alert>{gift.error.message}</Alert>
        ) : (
          <section aria-labelledby="scans-heading" className="flex flex-col gap-4 rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
            <h2 id="scans-heading" className="flex items-center gap-2 text-lg font-bold text-stone-900">
              <ScanLine className="size-5 text-brand-600" aria-hidden /> For {gift.data.recipientName}’s gift
            </h2>
            <p className="text-sm text-stone-700">
              Each scan is one opening of the message. {SCAN_TOP_UP_SCANS} more are added as soon as the payment is
              verified, and the gift opens again; the plan’s end date stays as it is.
            </p>
            {gift.data.status === 'active' ? <PayPanel giftId={giftId} purpose="scans" /> : <Alert tone="warning">{topUpTexts.notPaid}</Alert>}
          </section>
        )}
        <Link to={paths.myGifts.href()} className="font-semibold text-brand-700 underline underline-offset-2">
          Back to My Gifts
        </Link>
      </div>
    </div>
  );
}
