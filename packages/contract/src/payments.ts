import { z } from 'zod';
import { GiftId } from './common.ts';

// POST /api/payment/create-order — the client never sends an amount; the server prices the gift's plan.
export const CreateOrderRequest = z.object({ giftId: GiftId }).strict();
export const CreateOrderResponse = z.object({
  success: z.literal(true),
  provider: z.enum(['test', 'razorpay']),
  orderId: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  /** Razorpay key id for checkout.js; absent in test mode. */
  keyId: z.string().optional(),
});
export type CreateOrderResponse = z.infer<typeof CreateOrderResponse>;

// POST /api/payment/test-checkout/pay — the built-in test provider "charges" and returns Razorpay's handler shape.
export const TestPayRequest = z.object({ orderId: z.string().min(1) });
export const TestPayResponse = z.object({
  razorpay_order_id: z.string(),
  razorpay_payment_id: z.string(),
  razorpay_signature: z.string(),
});
export type TestPayResponse = z.infer<typeof TestPayResponse>;

// POST /api/payment/verify-payment-callback
export const VerifyPaymentRequest = z.object({
  orderId: z.string().min(1).max(100),
  paymentId: z.string().min(1).max(100),
  signature: z.string().min(1).max(200),
});
export type VerifyPaymentRequest = z.infer<typeof VerifyPaymentRequest>;
export const VerifyPaymentResponse = z.object({ success: z.literal(true), giftId: GiftId });
