import { topUpTexts } from '@giftlens/contract/extras-texts';
import { PAYMENT_VERIFY_RETRIES, REDIRECT_AFTER_PAYMENT_MS } from '@giftlens/contract/constants';
import { SCAN_TOP_UP_SCANS } from '@giftlens/contract/scan-top-up';
import { CheckCircle2, Loader2, XCircle } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { type PaymentReturn, useVerifyPayment } from '../api/verify-payment.ts';

type State = { kind: 'verifying'; retry: number } | { kind: 'success' } | { kind: 'error' };

/** A signed return (Razorpay, test checkout: orderId, paymentId, signature) or a Stripe Checkout session id. */
interface Props {
  giftId: string | undefined;
  orderId?: string | undefined;
  paymentId?: string | undefined;
  signature?: string | undefined;
  sessionId?: string | undefined;
}

export function PaymentSuccessPage({ giftId, orderId, paymentId, signature, sessionId }: Props) {
  // Any part missing: the error state at once, nothing is asked.
  const callback: PaymentReturn | null = !giftId
    ? null
    : sessionId
      ? { sessionId }
      : orderId && paymentId && signature
        ? { orderId, paymentId, signature }
        : null;
  const verification = useVerifyPayment(callback);
  const navigate = useNavigate();
  const { status } = verification;
  const scans = verification.data?.purpose === 'scans';

  useEffect(() => {
    if (!giftId || status === 'pending') return;
    if (status === 'error') {
      toast.error('Payment verification failed. Please contact support.');
      return;
    }
    // More scans (issue 40) go back to My Gifts, where the gift shows its new allowance; a gift to its share page.
    toast.success(scans ? topUpTexts.added(SCAN_TOP_UP_SCANS) : 'Payment verified successfully!');
    const next = scans ? paths.myGifts.href() : paths.share.href(giftId);
    const redirect = window.setTimeout(() => void navigate(next), REDIRECT_AFTER_PAYMENT_MS);
    return () => window.clearTimeout(redirect);
  }, [status, giftId, navigate, scans]);

  const state: State =
    status === 'success' ? { kind: 'success' } : status === 'error' ? { kind: 'error' } : { kind: 'verifying', retry: verification.failureCount };
  const view: State = callback ? state : { kind: 'error' };

  return (
    <div className="flex min-h-[70vh] items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-3xl border border-stone-200 bg-white p-6 text-center shadow-sm sm:p-8">
        {view.kind === 'verifying' ? (
          <div role="status" aria-live="polite" className="flex flex-col items-center gap-3">
            <Loader2 className="size-12 animate-spin text-brand-500" aria-hidden />
            <h1 className="text-xl font-bold text-stone-900">Verifying your payment…</h1>
            <p className="text-stone-600">
              {view.retry > 0
                ? `Retrying verification... (${view.retry}/${PAYMENT_VERIFY_RETRIES})`
                : 'This only takes a moment. Please keep this page open.'}
            </p>
          </div>
        ) : view.kind === 'success' ? (
          <div role="status" aria-live="polite" className="flex flex-col items-center gap-3">
            <CheckCircle2 className="size-12 text-emerald-600" aria-hidden />
            <h1 className="text-xl font-bold text-stone-900">Payment successful!</h1>
            <p className="text-stone-600">{scans ? 'Taking you to My Gifts…' : 'Taking you to share your gift…'}</p>
          </div>
        ) : (
          <div role="alert" className="flex flex-col items-center gap-3">
            <XCircle className="size-12 text-red-600" aria-hidden />
            <h1 className="text-xl font-bold text-stone-900">Payment verification failed</h1>
            <p className="text-stone-600">We couldn&apos;t verify your payment. Please contact support.</p>
            {giftId ? (
              <Button className="mt-2" onClick={() => void navigate(paths.checkout.href(giftId))}>
                Try Again
              </Button>
            ) : (
              <Link to={paths.home.href()} className="mt-2 font-semibold text-brand-600 underline">
                Go to the home page
              </Link>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
