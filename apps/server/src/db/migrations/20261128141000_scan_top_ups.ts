import type { Kysely } from 'kysely';

// Issue 40: an order buys either the gift's plan ('gift', every order before) or more scans for a paid gift
// ('scans', with how many): paying a 'scans' order raises the gift's extra_scans by that many, once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('purpose', 'text', (c) => c.notNull().defaultTo('gift')).execute();
  await db.schema.alterTable('orders').addColumn('scans', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('scans').execute();
  await db.schema.alterTable('orders').dropColumn('purpose').execute();
}
