import type { Kysely } from 'kysely';

// Every paid gift's 8-digit backup code (decision 039), sealed with AES-256-GCM under a key derived from
// SESSION_SECRET and bound to the gift's id ("v1.{iv}.{tag}.{ciphertext}", base64url). NULL until the gift is paid;
// gifts paid before this migration get theirs the first time their sender's list or summary is read.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gifts').addColumn('backup_code', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gifts').dropColumn('backup_code').execute();
}
