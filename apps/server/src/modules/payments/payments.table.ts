import type { ColumnType, Selectable } from 'kysely';

/** 'closed': the provider's checkout can no longer be paid (a Stripe session expired or its payment failed). */
export type OrderStatus = 'created' | 'paid' | 'closed';
export type PaymentProviderName = 'test' | 'razorpay' | 'stripe';
/** What an order buys: the gift's plan, or more scans for a paid gift (issue 40). */
export type OrderPurpose = 'gift' | 'scans';

export interface OrdersTable {
  id: string;
  gift_id: string;
  provider: PaymentProviderName;
  provider_order_id: string;
  amount_minor: number;
  currency: string;
  /** Older rows (and an older instance's inserts) are 'gift' by the column's default. */
  purpose: ColumnType<OrderPurpose, OrderPurpose | undefined, OrderPurpose>;
  /** A 'scans' order: how many it adds; null for 'gift'. */
  scans: ColumnType<number | null, number | null | undefined, number | null>;
  status: OrderStatus;
  payment_id: string | null;
  paid_at: string | null;
  /** Refunded in full by staff (the provider's refund id). */
  refunded_at?: string | null;
  refund_id?: string | null;
  created_at: string;
  updated_at: string;
}
export type Order = Selectable<OrdersTable>;

export interface WebhookEventsTable {
  /** Provider event id (X-Razorpay-Event-Id, Stripe's evt_…); unique, so a replay is recognised. */
  id: string;
  provider: PaymentProviderName;
  event_type: string;
  received_at: string;
}
