import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import { countBefore, countUpTo, deleteBatchBefore } from '../../db/sweep.ts';
import { giftExists } from '../gifts/gifts.repository.ts';
import type { OrderPurpose, OrdersTable, PaymentProviderName } from './payments.table.ts';

export async function insertOrder(db: Executor, order: Insertable<OrdersTable>): Promise<void> {
  await db.insertInto('orders').values(order).execute();
}

export const findOrderByProviderId = (db: Executor, providerOrderId: string) =>
  db.selectFrom('orders').selectAll().where('provider_order_id', '=', providerOrderId).executeTakeFirst();

/** An unpaid order already made for this gift at this price with this provider. */
export const findOpenOrder = (
  db: Executor,
  o: { giftId: string; provider: PaymentProviderName; amountMinor: number; currency: string; purpose: OrderPurpose },
) =>
  db
    .selectFrom('orders')
    .selectAll()
    .where('gift_id', '=', o.giftId)
    .where('purpose', '=', o.purpose)
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
/** True for the one call that turned the order paid (a replay, or a second process, finds it paid already). */
export async function markOrderPaid(db: Executor, id: string, paymentId: string | null, now: string): Promise<boolean> {
  const res = await db
    .updateTable('orders')
    .set({ status: 'paid', payment_id: paymentId, paid_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '!=', 'paid')
    .executeTakeFirst();
  return (res.numUpdatedRows ?? 0n) > 0n;
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

/** For a query on gifts: the gift has an order that is paid, or that was touched (made, reopened) since `cutoff`. */
export const orderPaidOrTouchedSince = (eb: ExpressionBuilder<Database, 'gifts'>, cutoff: string) =>
  eb.exists(
    eb
      .selectFrom('orders')
      .select('orders.id')
      .whereRef('orders.gift_id', '=', 'gifts.id')
      .where((o) => o.or([o('orders.status', '=', 'paid'), o('orders.updated_at', '>=', cutoff)])),
  );

/** Whether any of these gifts has a paid order. */
export async function anyPaidOrder(db: Executor, giftIds: string[]): Promise<boolean> {
  if (giftIds.length === 0) return false;
  const paid = await db.selectFrom('orders').select('id').where('gift_id', 'in', giftIds).where('status', '=', 'paid').execute();
  return paid.length > 0;
}

/** A deleted gift's unpaid orders go; a paid one stays (amount, date, provider ids: accounting, decision 016). */
export async function deleteUnpaidOrders(db: Executor, giftIds: string[]): Promise<void> {
  if (giftIds.length === 0) return;
  await db.deleteFrom('orders').where('gift_id', 'in', giftIds).where('status', '!=', 'paid').execute();
}

/**
 * Paid orders of deleted gifts (amount, date and provider ids kept for accounting) once their paid date is older than
 * `paidBefore`; at most `limit`.
 */
export async function deleteOldOrphanOrders(db: Executor, paidBefore: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('orders')
    .where('id', 'in', oldOrphanOrders(db, paidBefore).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

const oldOrphanOrders = (db: Executor, paidBefore: string) =>
  db
    .selectFrom('orders')
    .select('orders.id')
    // orders_paid_idx's predicate, spelled as it is there (SQLite matches a partial index's terms exactly).
    .where(sql<boolean>`orders.paid_at IS NOT NULL`)
    .where('orders.paid_at', '<', paidBefore)
    .where((w) => w.not(giftExists(w.ref('orders.gift_id'))));

export const oldOrphanOrdersLeft = (db: Executor, paidBefore: string) => countUpTo(db, oldOrphanOrders(db, paidBefore));

export const deleteOldWebhookEvents = (db: Executor, cutoff: string, limit: number) =>
  deleteBatchBefore(db, 'webhook_events', 'id', 'received_at', cutoff, limit);
export const oldWebhookEventsLeft = (db: Executor, cutoff: string) => countBefore(db, 'webhook_events', 'id', 'received_at', cutoff);

/** A gift's orders, oldest first (the staff console). */
export const ordersOfGift = (db: Executor, giftId: string) =>
  db.selectFrom('orders').selectAll().where('gift_id', '=', giftId).orderBy('created_at').execute();

/** The gifts whose order has this id, provider order id or provider payment id (the staff console's search). */
export const giftIdsByOrderRef = async (db: Executor, ref: string): Promise<string[]> =>
  (
    await db
      .selectFrom('orders')
      .select('gift_id')
      .where((eb) => eb.or([eb('id', '=', ref), eb('provider_order_id', '=', ref), eb.and([eb('payment_id', 'is not', null), eb('payment_id', '=', ref)])]))
      .limit(50)
      .execute()
  ).map((r) => r.gift_id);

/** Marks a paid order refunded in full; false when it was not paid or was refunded already. */
/** Gives a refund mark back (the provider refused the refund it was taken for). */
export async function unmarkOrderRefunded(db: Executor, id: string, markedAt: string, now: string): Promise<void> {
  await db.updateTable('orders').set({ refunded_at: null, refund_id: null, updated_at: now }).where('id', '=', id).where('refunded_at', '=', markedAt).execute();
}

/** The provider's id of a refund the order is marked with. */
export async function setRefundId(db: Executor, id: string, refundId: string, now: string): Promise<void> {
  await db.updateTable('orders').set({ refund_id: refundId, updated_at: now }).where('id', '=', id).execute();
}

/** Marks a paid order refunded (its refund id once the provider gave one); false when it was already. */
export async function markOrderRefunded(db: Executor, id: string, refundId: string | null, now: string): Promise<boolean> {
  const res = await db
    .updateTable('orders')
    .set({ refunded_at: now, refund_id: refundId, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'paid')
    .where('refunded_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
