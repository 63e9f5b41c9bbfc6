import { topUpTexts } from './extras-texts.ts';
import * as z from 'zod/mini';
import { GiftId } from './common.ts';
import { SCAN_TOP_UP_SCANS } from './scan-top-up.ts';
import { texts } from './texts.ts';

// POST /api/payment/create-order — the client never sends an amount; the server prices the gift's plan, or (with
// purpose "scans") 5 more scans for the paid gift (issue 40).
export const OrderPurpose = z.enum(['gift', 'scans']);
export type OrderPurpose = z.infer<typeof OrderPurpose>;
export const CreateOrderRequest = z.strictObject({
  giftId: GiftId,
  purpose: z.optional(OrderPurpose),
  scans: z.optional(z.literal(SCAN_TOP_UP_SCANS, { error: topUpTexts.count })),
});
export type CreateOrderRequest = z.infer<typeof CreateOrderRequest>;
export const CreateOrderResponse = z.object({
  success: z.literal(true),
  /** INR orders go to Razorpay, USD orders to Stripe; 'test' is the built-in checkout where one is not configured. */
  provider: z.enum(['test', 'razorpay', 'stripe']),
  /** The provider's order id (Razorpay order, test order, or Stripe Checkout Session id). */
  orderId: z.string(),
  amountMinor: z.number().check(z.int()),
  currency: z.string(),
  /** Razorpay key id for checkout.js; absent in test mode. */
  keyId: z.optional(z.string()),
  /** Stripe only: the hosted Checkout page the browser goes to. */
  checkoutUrl: z.optional(z.url({ protocol: /^https?$/ })),
});
export type CreateOrderResponse = z.infer<typeof CreateOrderResponse>;

// POST /api/payment/test-checkout/pay — the built-in test provider "charges" and returns Razorpay's handler shape.
export const TestPayRequest = z.object({ orderId: z.string().check(z.minLength(1)) });
export const TestPayResponse = z.object({
  razorpay_order_id: z.string(),
  razorpay_payment_id: z.string(),
  razorpay_signature: z.string(),
});
export type TestPayResponse = z.infer<typeof TestPayResponse>;

// POST /api/payment/verify-payment-callback
export const VerifyPaymentRequest = z.object({
  orderId: z.string().check(z.minLength(1), z.maxLength(100)),
  paymentId: z.string().check(z.minLength(1), z.maxLength(100)),
  signature: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type VerifyPaymentRequest = z.infer<typeof VerifyPaymentRequest>;
export const VerifyPaymentResponse = z.object({ success: z.literal(true), giftId: GiftId, purpose: z.optional(OrderPurpose) });
export type VerifyPaymentResponse = z.infer<typeof VerifyPaymentResponse>;

// POST /api/payment/verify-checkout-session — the return from Stripe Checkout: the server asks Stripe about the
// session (paid, and for the amount, currency and order it created); no signature travels in the URL.
export const CheckoutSessionId = z
  .string()
  .check(z.regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: texts.sender.paymentVerificationFailed }));
export const VerifyCheckoutSessionRequest = z.strictObject({ sessionId: CheckoutSessionId });
export type VerifyCheckoutSessionRequest = z.infer<typeof VerifyCheckoutSessionRequest>;

// The return paths live in a module without zod, so the web app's route map (in its first bundle) stays zod-free.
export { CHECKOUT_SESSION_ID, checkoutReturnPaths } from './checkout-return.ts';
