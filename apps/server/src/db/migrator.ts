import { type Kysely, type Migration, Migrator } from 'kysely';
import * as initial from './migrations/20261121051500_initial.ts';
import * as recipient from './migrations/20261121060000_recipient.ts';
import * as codeResends from './migrations/20261121070000_code_resends.ts';
import * as jobsAndPush from './migrations/20261123070000_jobs_and_push.ts';
import * as senderPlace from './migrations/20261123090000_sender_place.ts';
import * as photoRating from './migrations/20261123120000_photo_rating.ts';
import * as backupCode from './migrations/20261126070000_backup_code.ts';
import * as onDelete from './migrations/20261126120000_on_delete.ts';
import * as flatCosts from './migrations/20261126130000_flat_costs.ts';
import * as groupGifts from './migrations/20261126160000_group_gifts.ts';
import * as staff from './migrations/20261126170000_staff.ts';
import * as featuresRecipe from './migrations/20261127040000_features_recipe.ts';
import * as fairShare from './migrations/20261128120000_fair_share.ts';
import * as merchants from './migrations/20261128140000_merchants.ts';
import * as scanTopUps from './migrations/20261128141000_scan_top_ups.ts';
import * as giftReminders from './migrations/20261128150000_gift_reminders.ts';

/** Every migration, by its timestamped name; Kysely runs them in name order. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121051500_initial': initial,
  '20261121060000_recipient': recipient,
  '20261121070000_code_resends': codeResends,
  '20261123070000_jobs_and_push': jobsAndPush,
  '20261123090000_sender_place': senderPlace,
  '20261123120000_photo_rating': photoRating,
  '20261126070000_backup_code': backupCode,
  '20261126120000_on_delete': onDelete,
  '20261126130000_flat_costs': flatCosts,
  '20261126160000_group_gifts': groupGifts,
  '20261126170000_staff': staff,
  '20261127040000_features_recipe': featuresRecipe,
  '20261128120000_fair_share': fairShare,
  '20261128140000_merchants': merchants,
  '20261128141000_scan_top_ups': scanTopUps,
  '20261128150000_gift_reminders': giftReminders,
};

const migratorOf = <T>(db: Kysely<T>) =>
  new Migrator({ db: db as Kysely<unknown>, provider: { getMigrations: () => Promise.resolve(MIGRATIONS) } });

export function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  return outcome(migratorOf(db).migrateToLatest());
}

/** Up to and including `name` (a benchmark seeds an older schema, then upgrades it). */
export function migrateUpTo<T>(db: Kysely<T>, name: string): Promise<string[]> {
  if (!(name in MIGRATIONS)) throw new Error(`no migration named ${name}`);
  return outcome(migratorOf(db).migrateTo(name));
}

async function outcome(run: ReturnType<Migrator['migrateToLatest']>): Promise<string[]> {
  const { error, results } = await run;
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
