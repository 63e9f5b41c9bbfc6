import { useParams } from 'react-router';
import { PaymentSuccessPage } from '../../features/payment/components/payment-success-page.tsx';

/** /payment-success/{giftId}/{orderId}/{paymentId}/{signature} */
export function PaymentSuccessRoute() {
  const { giftId, orderId, paymentId, signature } = useParams();
  return <PaymentSuccessPage giftId={giftId} orderId={orderId} paymentId={paymentId} signature={signature} />;
}

/** /payment-success/{giftId}/stripe/{sessionId}: back from Stripe Checkout, the same verification page. */
export function StripeReturnRoute() {
  const { giftId, sessionId } = useParams();
  return <PaymentSuccessPage giftId={giftId} sessionId={sessionId} />;
}
