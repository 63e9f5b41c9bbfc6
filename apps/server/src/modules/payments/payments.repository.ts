import type { Executor } from '../../db/database.ts';
import type { OrdersTable, PaymentProviderName } from './payments.table.ts';

export async function insertOrder(db: Executor, order: OrdersTable): Promise<void> {
  await db.insertInto('orders').values(order).execute();
}

export const findOrderByProviderId = (db: Executor, providerOrderId: string) =>
  db.selectFrom('orders').selectAll().where('provider_order_id', '=', providerOrderId).executeTakeFirst();

/** An unpaid order already made for this gift at this price with this provider. */
export const findOpenOrder = (
  db: Executor,
  o: { giftId: string; provider: PaymentProviderName; amountMinor: number; currency: string },
) =>
  db
    .selectFrom('orders')
    .selectAll()
    .where('gift_id', '=', o.giftId)
    .where('provider', '=', o.provider)
    .where('amount_minor', '=', o.amountMinor)
    .where('currency', '=', o.currency)
    .where('status', '=', 'created')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/** A checkout is starting on this order again: it counts as fresh activity for housekeeping. */
export async function touchOrder(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('orders').set({ updated_at: now }).where('id', '=', id).where('status', '=', 'created').execute();
}

/** The provider's checkout for this order can no longer be paid; a paid order stays paid. */
export async function closeOrder(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('orders').set({ status: 'closed', updated_at: now }).where('id', '=', id).where('status', '=', 'created').execute();
}

/** Idempotent: the first payment recorded for an order wins. */
export async function markOrderPaid(db: Executor, id: string, paymentId: string | null, now: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ status: 'paid', payment_id: paymentId, paid_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '!=', 'paid')
    .execute();
}

/** Records a webhook event once; false when this event id was seen before (a replay). */
export async function recordWebhookEvent(
  db: Executor,
  event: { id: string; provider: PaymentProviderName; eventType: string; now: string },
): Promise<boolean> {
  const res = await db
    .insertInto('webhook_events')
    .values({ id: event.id, provider: event.provider, event_type: event.eventType, received_at: event.now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
}
