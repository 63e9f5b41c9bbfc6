import { texts } from '@giftlens/contract/texts';
import { CheckCircle2, FlaskConical } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { errorText } from '../../../lib/user-text.ts';
import { type CheckoutPurpose, useCreateOrder } from '../api/create-order.ts';
import { useTestPay } from '../api/test-pay.ts';
import { loadRazorpay } from '../lib/razorpay.ts';

/**
 * The order for the gift, paid through Razorpay's checkout (INR), Stripe's hosted page (USD) or, on a test server,
 * the built-in test checkout.
 */
export function PayPanel({ giftId, purpose = 'gift' }: { giftId: string; purpose?: CheckoutPurpose }) {
  const order = useCreateOrder(giftId, true, purpose);
  const testPay = useTestPay();
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  // Back from Stripe's page with the browser's Back button: the page comes from the back-forward cache, usable again.
  useEffect(() => {
    const reset = (e: PageTransitionEvent) => e.persisted && setOpening(false);
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  if (order.isPending) return <PageSpinner label="Preparing payment…" />;
  if (order.isError) {
    return (
      <div className="flex flex-col gap-3">
        <Alert>{order.error.message}</Alert>
        <Button variant="secondary" onClick={() => void order.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const o = order.data;
  const amount = formatMoney(o.amountMinor, o.currency);

  const toResult = (orderId: string, paymentId: string, signature: string) =>
    void navigate(paths.paymentSuccess.href(giftId, orderId, paymentId, signature));

  if (o.provider === 'test') {
    return (
      <div className="flex flex-col gap-3 rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50 p-4">
        <p className="flex items-center gap-2 font-bold text-amber-900">
          <FlaskConical className="size-5" aria-hidden /> Test mode — no real money is charged
        </p>
        <p className="text-sm text-amber-900">
          This server uses the built-in test checkout. Paying here marks the gift as paid exactly as a real payment would.
        </p>
        <Button
          block
          disabled={testPay.isPending}
          onClick={() =>
            testPay.mutate(o.orderId, {
              onSuccess: (r) => toResult(r.razorpay_order_id, r.razorpay_payment_id, r.razorpay_signature),
              onError: (err) => toast.error(err.message),
            })
          }
        >
          {testPay.isPending ? 'Processing payment…' : `Pay ${amount} (test)`}
        </Button>
      </div>
    );
  }

  if (o.provider === 'stripe' && o.checkoutUrl) {
    const checkoutUrl = o.checkoutUrl;
    // Stripe's hosted page: the browser goes there and Stripe sends it back to /payment-success/{giftId}/stripe/….
    return (
      <div className="flex flex-col gap-3">
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <CheckCircle2 className="size-4 text-emerald-600" aria-hidden /> Secure payment by Stripe
        </p>
        <Button
          block
          disabled={opening}
          onClick={() => {
            setOpening(true);
            window.location.assign(checkoutUrl);
          }}
        >
          {opening ? 'Opening payment…' : `Pay ${amount}`}
        </Button>
        <p className="text-xs text-stone-500">You pay on Stripe’s secure page and come straight back here.</p>
      </div>
    );
  }

  const openRazorpay = async () => {
    setOpening(true);
    try {
      const Razorpay = await loadRazorpay();
      const rzp = new Razorpay({
        key: o.keyId ?? '',
        order_id: o.orderId,
        amount: o.amountMinor,
        currency: o.currency,
        name: 'GiftLens',
        description: purpose === 'scans' ? 'More scans for your gift' : 'Personal message for your gift',
        theme: { color: '#f0532d' },
        handler: (r) => toResult(r.razorpay_order_id, r.razorpay_payment_id, r.razorpay_signature),
        modal: { ondismiss: () => setOpening(false) },
      });
      rzp.on('payment.failed', (r) => toast.error(r.error?.description ?? 'Payment failed. Please try again.'));
      rzp.open();
    } catch (err) {
      toast.error(errorText(err, texts.sender.generic));
      setOpening(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <p className="flex items-center gap-2 text-sm text-stone-600">
        <CheckCircle2 className="size-4 text-emerald-600" aria-hidden /> Secure payment by Razorpay
      </p>
      <Button block disabled={opening} onClick={() => void openRazorpay()}>
        {opening ? 'Opening payment…' : `Pay ${amount}`}
      </Button>
    </div>
  );
}
