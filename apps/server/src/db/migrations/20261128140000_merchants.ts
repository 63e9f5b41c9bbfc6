import { type Kysely, sql } from 'kysely';

// The merchant API (issue 39, decision 058): merchants and their hashed API keys, each merchant gift's order, release
// and the moments the shop is told of (kept after the gift is deleted: the monthly counts are the invoice), and each
// webhook with every attempt's answer (the staff timeline).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('brand_colour', 'text')
    .addColumn('logo_path', 'text')
    .addColumn('webhook_url', 'text', (c) => c.notNull())
    // Sealed (lib/sealed.ts) with the merchant's id: the HMAC needs the secret itself.
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('merchant_api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    // SHA-256 of the whole key (190 random bits: no stretching needed); the prefix is shown to staff.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merchant_api_keys_merchant_idx').on('merchant_api_keys').column('merchant_id').execute();

  // No foreign key to gifts on purpose: the row outlives its gift (the invoice's counts, as paid orders do).
  await db.schema
    .createTable('merchant_gifts')
    .addColumn('gift_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id').onDelete('restrict'))
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    // The rating (JSON) and look-alike warning given at creation (a repeated call with the same Idempotency-Key answers it again).
    .addColumn('lookalike', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quality', 'text', (c) => c.notNull())
    // 'now', 'on_delivery' or 'at' (release_at).
    .addColumn('release', 'text', (c) => c.notNull())
    .addColumn('release_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('released_at', 'text')
    .addColumn('message_ready_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('opened_at', 'text')
    .addColumn('reaction_ready_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('merchant_gifts_idempotency_idx')
    .on('merchant_gifts')
    .columns(['merchant_id', 'idempotency_key'])
    .unique()
    .where(sql.raw<boolean>('idempotency_key IS NOT NULL'))
    .execute();
  await db.schema.createIndex('merchant_gifts_order_idx').on('merchant_gifts').columns(['merchant_id', 'order_id']).execute();
  await db.schema.createIndex('merchant_gifts_created_idx').on('merchant_gifts').columns(['merchant_id', 'created_at']).execute();
  await db.schema.createIndex('merchant_gifts_opened_idx').on('merchant_gifts').columns(['merchant_id', 'opened_at']).execute();

  // One row per event (its id is the body's id); the attempts below it.
  await db.schema
    .createTable('merchant_webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('gift_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merchant_webhooks_gift_idx').on('merchant_webhooks').columns(['gift_id', 'created_at']).execute();
  await db.schema
    .createTable('merchant_webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('merchant_webhooks.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('answer', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merchant_webhook_attempts_webhook_idx').on('merchant_webhook_attempts').columns(['webhook_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_webhook_attempts').execute();
  await db.schema.dropTable('merchant_webhooks').execute();
  await db.schema.dropTable('merchant_gifts').execute();
  await db.schema.dropTable('merchant_api_keys').execute();
  await db.schema.dropTable('merchants').execute();
}
