import type { Kysely } from 'kysely';

// The recognisability rating of each gift photo (1-5) and the reasons when it is low (decision 031). Photos enrolled
// before keep NULL: the rating is shown to the sender at enrolment and not needed later.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gift_photos').addColumn('rating', 'integer').execute();
  // comma-separated reason names (plain, blurred, small, repetitive); '' when none
  await db.schema.alterTable('gift_photos').addColumn('quality_reasons', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gift_photos').dropColumn('quality_reasons').execute();
  await db.schema.alterTable('gift_photos').dropColumn('rating').execute();
}
