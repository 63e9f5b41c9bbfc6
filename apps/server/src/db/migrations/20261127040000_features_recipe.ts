import { type Kysely, sql } from 'kysely';

// Which matcher recipe enrolled each gift photo's features (decision 053: references gained their tilted views), so
// housekeeping can enrol again, a few a run, the photos enrolled by an older one. Features enrolled before: 0.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gift_photos').addColumn('features_recipe', 'integer').execute();
  await sql`UPDATE gift_photos SET features_recipe = 0 WHERE features IS NOT NULL`.execute(db);
  await db.schema.createIndex('gift_photos_features_recipe_idx').on('gift_photos').columns(['features_recipe', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gift_photos_features_recipe_idx').execute();
  await db.schema.alterTable('gift_photos').dropColumn('features_recipe').execute();
}
