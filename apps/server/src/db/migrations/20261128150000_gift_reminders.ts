import type { Kysely } from 'kysely';

// Issue 40: the sender turned the gift's reminders off at this instant (null: on, the default for every gift).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gifts').addColumn('reminders_off_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gifts').dropColumn('reminders_off_at').execute();
}
