import type { Kysely } from 'kysely';

// The recipient side: recipients, reveal grants, failed-scan counters, reactions; and the enrolment quality
// of each gift photo.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gift_photos').addColumn('recognisable', 'integer').execute();
  await db.schema.alterTable('gift_photos').addColumn('quality_message', 'text').execute();

  await db.schema
    .createTable('recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('reveal_grants')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reveal_grants_expires_idx').on('reveal_grants').column('expires_at').execute();

  await db.schema
    .createTable('scan_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scan_failures_scope_idx').on('scan_failures').columns(['scope', 'created_at']).execute();
  await db.schema.createIndex('scan_failures_created_idx').on('scan_failures').column('created_at').execute();

  await db.schema
    .createTable('reactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // One reaction per gift, enforced by the database.
    .addColumn('gift_id', 'text', (c) => c.notNull().unique().references('gifts.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('consent_granted', 'integer')
    .addColumn('consented_at', 'text')
    .addColumn('device_info', 'text')
    .addColumn('browser_info', 'text')
    .addColumn('playback_session_id', 'text')
    .addColumn('media_duration', 'integer')
    // Browser timestamps are epoch milliseconds: PostgreSQL's 4-byte real would round them.
    .addColumn('media_start_time', 'double precision')
    .addColumn('media_end_time', 'double precision')
    .addColumn('duration_seconds', 'double precision')
    .addColumn('sync_offset_ms', 'double precision')
    .addColumn('recording_quality', 'text')
    .addColumn('file_path', 'text')
    .addColumn('file_mime', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('uploaded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['reactions', 'scan_failures', 'reveal_grants', 'recipients']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('gift_photos').dropColumn('quality_message').execute();
  await db.schema.alterTable('gift_photos').dropColumn('recognisable').execute();
}
