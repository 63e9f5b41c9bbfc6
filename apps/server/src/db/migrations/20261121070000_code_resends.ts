import type { Kysely } from 'kysely';

// One row per purpose and address holding when a code was last sent: the resend cooldown is taken by one
// conditional upsert, so two simultaneous send calls cannot both send.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('code_resends')
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('code_resends_pk', ['purpose', 'destination'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('code_resends').execute();
}
