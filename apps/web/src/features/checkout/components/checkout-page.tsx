import { texts } from '@giftlens/contract/texts';
import { OCCASIONS, occasionLabel, type Occasion } from '@giftlens/contract/occasions';
import type { GiftSummary } from '@giftlens/contract/sender';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, FlaskConical, Lock, MessageSquareText, Mic, Video } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { paths } from '../../../app/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { senderGiftQueryKey, useSenderGift } from '../../../api/sender-gift.ts';
import { useCreateOrder } from '../api/create-order.ts';
import { useTestPay } from '../api/test-pay.ts';
import { loadRazorpay } from '../lib/razorpay.ts';
import { EmailAddress } from '../../../components/ui/email-address.tsx';
import { errorText } from '../../../lib/user-text.ts';

/** The message upload that may still be running in the background (supplied by the app layer). */
export interface BackgroundUpload {
  phase: 'caching' | 'uploading' | 'completed' | 'failed';
  progress: number;
  error: string | null;
}

export function CheckoutPage({ giftId, upload }: { giftId: string; upload: BackgroundUpload | undefined }) {
  const gift = useSenderGift(giftId);
  const queryClient = useQueryClient();

  // The upload finishing changes the gift's status on the server: read it again.
  const uploadPhase = upload?.phase;
  useEffect(() => {
    if (uploadPhase === 'completed') void queryClient.invalidateQueries({ queryKey: senderGiftQueryKey(giftId) });
  }, [uploadPhase, giftId, queryClient]);

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
  const uploading = upload?.phase === 'caching' || upload?.phase === 'uploading';

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
          ) : uploading ? (
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
  return (
    <div className="px-4 py-6 sm:py-10">
      <div className="mx-auto flex max-w-4xl flex-col gap-6">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Checkout</h1>
        {children}
      </div>
    </div>
  );
}

function GiftSummaryCard({ gift, uploading }: { gift: GiftSummary; uploading: boolean }) {
  const occasion = (OCCASIONS as readonly string[]).includes(gift.occasion)
    ? occasionLabel(gift.occasion as Occasion)
    : gift.occasion;
  const MessageIcon = gift.messageType === 'video' ? Video : gift.messageType === 'audio' ? Mic : MessageSquareText;
  const messageLabel = uploading
    ? 'Message uploading…'
    : gift.messageType === 'video'
      ? 'Video message'
      : gift.messageType === 'audio'
        ? 'Voice message'
        : gift.messageType === 'text'
          ? 'Text message'
          : 'Message not added yet';
  return (
    <section aria-labelledby="summary-heading" className="flex flex-col gap-4 rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="summary-heading" className="text-lg font-bold text-stone-900">
        Your gift
      </h2>
      <div className="flex gap-4">
        {gift.giftImageUrl ? (
          <img src={gift.giftImageUrl} alt="Your gift" className="size-24 shrink-0 rounded-2xl border border-stone-200 object-cover" />
        ) : null}
        <dl className="grid min-w-0 grid-cols-[auto_1fr] content-start gap-x-3 gap-y-1 text-sm">
          <dt className="text-stone-500">For</dt>
          <dd className="truncate font-semibold text-stone-900">{gift.recipientName}</dd>
          <dt className="text-stone-500">Occasion</dt>
          <dd className="text-stone-800">{occasion}</dd>
        </dl>
      </div>
      {gift.recipientEmail ? (
        // On a line of its own: beside the photo a long address would have no room on a phone.
        <dl className="-mt-1 text-sm">
          <dt className="text-stone-500">Email</dt>
          <dd className="text-stone-800">
            <EmailAddress email={gift.recipientEmail} />
          </dd>
        </dl>
      ) : null}
      <p className="flex items-center gap-2 text-sm text-stone-700">
        <MessageIcon className="size-4 text-brand-500" aria-hidden /> {messageLabel}
      </p>
      {!uploading && gift.messageState === 'processing' ? (
        // Converting the upload for every phone is not a problem: say what it is.
        <p className="-mt-2 text-sm text-stone-500">Uploaded. We are preparing it so it plays on every phone.</p>
      ) : null}
      <div className="rounded-2xl bg-brand-50 p-4">
        <p className="font-semibold text-stone-900">{gift.plan.name} plan</p>
        <p className="text-sm text-stone-600">Valid for: {gift.plan.validity}</p>
        <p className="mt-1 text-lg font-bold text-brand-700">{gift.plan.price}</p>
      </div>
    </section>
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

function PayPanel({ giftId }: { giftId: string }) {
  const order = useCreateOrder(giftId, true);
  const testPay = useTestPay();
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);

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
        description: 'Personal message for your gift',
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
