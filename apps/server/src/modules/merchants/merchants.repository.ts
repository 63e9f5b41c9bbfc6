import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type {
  Merchant,
  MerchantApiKey,
  MerchantGift,
  MerchantGiftsTable,
  MerchantsTable,
  MerchantWebhook,
  MerchantWebhookAttempt,
  MerchantWebhookAttemptsTable,
  MerchantWebhooksTable,
} from './merchants.table.ts';

// ---------- merchants and keys ----------

export async function insertMerchant(db: Executor, row: MerchantsTable): Promise<void> {
  await db.insertInto('merchants').values(row).execute();
}

export const findMerchant = (db: Executor, id: string): Promise<Merchant | undefined> =>
  db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();

export const listMerchants = (db: Executor): Promise<Merchant[]> => db.selectFrom('merchants').selectAll().orderBy('created_at').execute();

export async function updateMerchant(
  db: Executor,
  id: string,
  change: Partial<Pick<MerchantsTable, 'display_name' | 'brand_colour' | 'logo_path' | 'webhook_url' | 'webhook_secret'>>,
  now: string,
): Promise<boolean> {
  const res = await db.updateTable('merchants').set({ ...change, updated_at: now }).where('id', '=', id).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function insertKey(db: Executor, row: Omit<MerchantApiKey, 'revoked_at'>): Promise<void> {
  await db.insertInto('merchant_api_keys').values({ ...row, revoked_at: null }).execute();
}

/** Revokes every active key of the merchant; the number revoked. */
export async function revokeKeys(db: Executor, merchantId: string, now: string): Promise<number> {
  const res = await db.updateTable('merchant_api_keys').set({ revoked_at: now }).where('merchant_id', '=', merchantId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The active key with this hash and its merchant. */
export const activeKeyByHash = (db: Executor, keyHash: string) =>
  db
    .selectFrom('merchant_api_keys as k')
    .innerJoin('merchants as m', 'm.id', 'k.merchant_id')
    .select(['k.id as keyId', 'm.id', 'm.name'])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();

export const activeKeyPrefixes = (db: Executor) =>
  db.selectFrom('merchant_api_keys').select(['merchant_id', 'prefix']).where('revoked_at', 'is', null).orderBy('created_at').execute();

// ---------- merchant gifts ----------

export async function insertMerchantGift(db: Executor, row: MerchantGiftsTable): Promise<void> {
  await db.insertInto('merchant_gifts').values(row).execute();
}

export const findMerchantGift = (db: Executor, giftId: string): Promise<MerchantGift | undefined> =>
  db.selectFrom('merchant_gifts').selectAll().where('gift_id', '=', giftId).executeTakeFirst();

export const findOwnGift = (db: Executor, merchantId: string, giftId: string): Promise<MerchantGift | undefined> =>
  db.selectFrom('merchant_gifts').selectAll().where('gift_id', '=', giftId).where('merchant_id', '=', merchantId).executeTakeFirst();

export const findByIdempotencyKey = (db: Executor, merchantId: string, key: string): Promise<MerchantGift | undefined> =>
  db.selectFrom('merchant_gifts').selectAll().where('merchant_id', '=', merchantId).where('idempotency_key', '=', key).executeTakeFirst();

export const findByOrder = (db: Executor, merchantId: string, orderId: string): Promise<MerchantGift[]> =>
  db.selectFrom('merchant_gifts').selectAll().where('merchant_id', '=', merchantId).where('order_id', '=', orderId).orderBy('created_at').limit(100).execute();

export type MomentColumn = 'message_ready_at' | 'sent_at' | 'opened_at' | 'reaction_ready_at' | 'cancelled_at' | 'released_at' | 'delivered_at';

/** Records a moment once: true only for the call that set it. */
export async function markMoment(db: Executor, giftId: string, column: MomentColumn, now: string): Promise<boolean> {
  const res = await db.updateTable('merchant_gifts').set({ [column]: now }).where('gift_id', '=', giftId).where(column, 'is', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Gifts created and first opened per calendar month (UTC, "YYYY-MM"), newest first. */
export async function monthlyCounts(db: Executor, merchantId: string): Promise<{ month: string; created: number; opened: number }[]> {
  const month = (column: 'created_at' | 'opened_at') => sql<string>`substr(${sql.ref(column)}, 1, 7)`;
  const [created, opened] = await Promise.all([
    db.selectFrom('merchant_gifts').select([month('created_at').as('month'), (eb) => eb.fn.countAll<number | string>().as('n')]).where('merchant_id', '=', merchantId).groupBy(month('created_at')).execute(),
    db
      .selectFrom('merchant_gifts')
      .select([month('opened_at').as('month'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('merchant_id', '=', merchantId)
      .where('opened_at', 'is not', null)
      .groupBy(month('opened_at'))
      .execute(),
  ]);
  const months = new Map<string, { month: string; created: number; opened: number }>();
  const at = (m: string) => months.get(m) ?? months.set(m, { month: m, created: 0, opened: 0 }).get(m)!;
  for (const r of created) at(r.month).created = Number(r.n);
  for (const r of opened) at(r.month).opened = Number(r.n);
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}

/** The brand of a merchant's gift, or undefined for a sender's own gift. */
export const brandOfGift = (db: Executor, giftId: string) =>
  db
    .selectFrom('merchant_gifts as g')
    .innerJoin('merchants as m', 'm.id', 'g.merchant_id')
    .select(['m.name', 'm.display_name', 'm.logo_path', 'm.brand_colour'])
    .where('g.gift_id', '=', giftId)
    .executeTakeFirst();

// ---------- webhooks ----------

export async function insertWebhook(db: Executor, row: MerchantWebhooksTable): Promise<void> {
  await db.insertInto('merchant_webhooks').values(row).execute();
}

export const findWebhook = (db: Executor, id: string): Promise<MerchantWebhook | undefined> =>
  db.selectFrom('merchant_webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export async function markWebhookDelivered(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('merchant_webhooks').set({ delivered_at: now }).where('id', '=', id).where('delivered_at', 'is', null).execute();
}

export async function insertAttempt(db: Executor, row: MerchantWebhookAttemptsTable): Promise<void> {
  await db.insertInto('merchant_webhook_attempts').values(row).execute();
}

/** A gift's webhooks and every attempt, oldest first (the staff timeline). */
export async function webhooksOfGift(db: Executor, giftId: string, limit: number): Promise<{ webhook: MerchantWebhook; attempts: MerchantWebhookAttempt[] }[]> {
  const hooks = await db.selectFrom('merchant_webhooks').selectAll().where('gift_id', '=', giftId).orderBy('created_at').limit(limit).execute();
  if (hooks.length === 0) return [];
  const attempts = await db
    .selectFrom('merchant_webhook_attempts')
    .selectAll()
    .where(
      'webhook_id',
      'in',
      hooks.map((h) => h.id),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return hooks.map((webhook) => ({ webhook, attempts: attempts.filter((a) => a.webhook_id === webhook.id) }));
}
