import { type Kysely, sql } from 'kysely';

// The operator's side (issue 28, decision 051): staff members' TOTP second factor (sealed), the audit trail of every
// staff action, each scan's outcome for a gift's timeline, and what staff can do to a gift: extend it, refund it, take
// it down. Orders remember their refund.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff_members')
    .addColumn('email', 'text', (c) => c.primaryKey())
    // The TOTP secret, sealed (lib/sealed.ts) and bound to the address; confirmed once the first code matched.
    .addColumn('totp_secret', 'text', (c) => c.notNull())
    .addColumn('totp_confirmed_at', 'text')
    // The newest 30-second step a code was accepted for: a code is never accepted twice.
    .addColumn('last_totp_step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // No foreign key on purpose: the trail outlives the gift it speaks of (as paid orders do, decision 016).
  await db.schema
    .createTable('staff_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('gift_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_audit_gift_idx').on('staff_audit').columns(['gift_id', 'created_at']).execute();
  await db.schema.createIndex('staff_audit_created_idx').on('staff_audit').column('created_at').execute();

  await db.schema
    .createTable('scan_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id').onDelete('cascade'))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('score', 'real')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scan_events_gift_idx').on('scan_events').columns(['gift_id', 'created_at']).execute();

  await db.schema.alterTable('gifts').addColumn('valid_until_override', 'text').execute();
  await db.schema.alterTable('gifts').addColumn('extra_scans', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('gifts').addColumn('refunded_at', 'text').execute();
  await db.schema.alterTable('gifts').addColumn('taken_down_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('refunded_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('refund_id', 'text').execute();
  // Support's search by an order's or a payment's id.
  await db.schema.createIndex('orders_payment_id_idx').on('orders').column('payment_id').where(sql.raw<boolean>('payment_id IS NOT NULL')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_payment_id_idx').execute();
  for (const column of ['refund_id', 'refunded_at']) await db.schema.alterTable('orders').dropColumn(column).execute();
  for (const column of ['taken_down_at', 'refunded_at', 'extra_scans', 'valid_until_override']) await db.schema.alterTable('gifts').dropColumn(column).execute();
  await db.schema.dropTable('scan_events').execute();
  await db.schema.dropTable('staff_audit').execute();
  await db.schema.dropTable('staff_members').execute();
}
