import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

// Timestamps are ISO-8601 UTC strings (text): portable, and they sort correctly as text on both databases.
export async function up(db: Kysely<unknown>): Promise<void> {
  const blob = isPostgres(db) ? sql`bytea` : sql`blob`;

  await db.schema
    .createTable('senders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('phone_number', 'text')
    .addColumn('first_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('verification_codes_destination_idx')
    .on('verification_codes')
    .columns(['purpose', 'destination', 'created_at'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('gifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id'))
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('recipient_email', 'text')
    .addColumn('recipient_phone', 'text')
    .addColumn('occasion', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message_type', 'text')
    .addColumn('message_path', 'text')
    .addColumn('message_mime', 'text')
    .addColumn('message_text', 'text')
    .addColumn('message_size', 'integer')
    .addColumn('paid_at', 'text')
    .addColumn('scans_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gifts_sender_idx').on('gifts').column('sender_id').execute();
  await db.schema.createIndex('gifts_recipient_email_idx').on('gifts').column('recipient_email').execute();

  await db.schema
    .createTable('gift_photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id').onDelete('cascade'))
    .addColumn('storage_path', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('features', blob)
    .addColumn('quality', 'real')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('gift_photos_gift_position_uq', ['gift_id', 'position'])
    .execute();

  await db.schema
    .createTable('upload_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id').onDelete('cascade'))
    .addColumn('message_type', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text', (c) => c.notNull().unique())
    .addColumn('declared_type', 'text', (c) => c.notNull())
    .addColumn('max_bytes', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('size', 'integer')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id'))
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
  await db.schema.createIndex('orders_gift_idx').on('orders').column('gift_id').execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scheduled_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id'))
    .addColumn('contact_type', 'text', (c) => c.notNull())
    .addColumn('recipient_contact', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scheduled_messages_due_idx')
    .on('scheduled_messages')
    .columns(['status', 'scheduled_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'scheduled_messages',
    'webhook_events',
    'orders',
    'upload_intents',
    'gift_photos',
    'gifts',
    'sessions',
    'verification_codes',
    'senders',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
