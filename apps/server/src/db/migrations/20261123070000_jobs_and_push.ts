import type { Kysely } from 'kysely';

// The durable job runner's table (docs/decisions/013-jobs.md), push subscriptions, and when a gift was first
// opened (the moment its sender is told).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // At most one job per key (a delivery, a notice): enqueueing it again is a no-op.
    .addColumn('key', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('lock_token', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('jobs_lease_idx').on('jobs').columns(['status', 'locked_until']).execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_sender_idx').on('push_subscriptions').column('sender_id').execute();

  await db.schema.alterTable('gifts').addColumn('first_opened_at', 'text').execute();
  await db.schema.createIndex('scheduled_messages_gift_idx').on('scheduled_messages').column('gift_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scheduled_messages_gift_idx').execute();
  await db.schema.alterTable('gifts').dropColumn('first_opened_at').execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('jobs').execute();
}
