import { type Kysely, sql } from 'kysely';

// The sender's own place: a gift can be deleted while its paid order stays for accounting (so orders no longer
// reference gifts), and a message (or reaction) has a processing state and a poster frame.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Orders keep the gift's id as a plain value: SQLite cannot drop a foreign key, so the table is rebuilt.
  await db.schema
    .createTable('orders_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_order_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('paid_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO orders_new SELECT id, gift_id, provider, provider_order_id, amount_minor, currency, status, payment_id, paid_at, created_at, updated_at FROM orders`.execute(db);
  await db.schema.dropTable('orders').execute();
  await db.schema.alterTable('orders_new').renameTo('orders').execute();
  await db.schema.createIndex('orders_gift_idx').on('orders').column('gift_id').execute();

  await db.schema.alterTable('gifts').addColumn('message_state', 'text', (c) => c.notNull().defaultTo('none')).execute();
  await db.schema.alterTable('gifts').addColumn('message_poster_path', 'text').execute();
  await db.schema.alterTable('gifts').addColumn('message_error', 'text').execute();
  await sql`UPDATE gifts SET message_state = 'ready' WHERE message_path IS NOT NULL OR message_text IS NOT NULL`.execute(db);

  await db.schema.alterTable('reactions').addColumn('file_state', 'text', (c) => c.notNull().defaultTo('ready')).execute();
  await db.schema.alterTable('reactions').addColumn('poster_path', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('reactions').dropColumn('poster_path').execute();
  await db.schema.alterTable('reactions').dropColumn('file_state').execute();
  await db.schema.alterTable('gifts').dropColumn('message_error').execute();
  await db.schema.alterTable('gifts').dropColumn('message_poster_path').execute();
  await db.schema.alterTable('gifts').dropColumn('message_state').execute();
  // The orders' foreign key to gifts is not restored: orders of deleted gifts would violate it.
}
