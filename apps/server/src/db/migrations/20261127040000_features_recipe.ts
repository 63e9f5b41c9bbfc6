import { type Kysely, sql } from 'kysely';

// Which matcher recipe enrolled each gift photo's features (decision 053: references gained their tilted views), so
// housekeeping can enrol again, a few a run, the photos enrolled by an older one. Every row there is, and any row an
// older instance still inserts during a rolling deploy, gets 0: older than any recipe.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gift_photos').addColumn('features_recipe', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // The photos still to enrol again, in id order (decision 044: partial, with the literal the query spells). A later
  // recipe adds its own index with its own number; the flat-costs test fails until it does.
  await db.schema.createIndex('gift_photos_recipe_53_idx').on('gift_photos').column('id').where(sql.raw<boolean>('features_recipe < 53')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gift_photos_recipe_53_idx').execute();
  await db.schema.alterTable('gift_photos').dropColumn('features_recipe').execute();
}
