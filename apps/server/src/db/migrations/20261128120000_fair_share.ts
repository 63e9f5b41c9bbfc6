import { type Kysely, sql } from 'kysely';

// A fair share between senders in the single messages' conversion lane (issue 37): each render job names whose
// turn it takes (`share_key`: the sender of its gift), and each claim notes when it was claimed (`claimed_at`), so
// the lane's claim serves first the share whose last turn came longest ago. Jobs written before have neither: each
// takes a turn of its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('share_key', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('claimed_at', 'text').execute();
  // A share's last turn: the newest claimed_at of its jobs, one index seek per share (decision 044: partial, with the
  // literal the query spells).
  await db.schema
    .createIndex('jobs_share_turn_idx')
    .on('jobs')
    .columns(['share_key', 'claimed_at'])
    .where(sql.raw<boolean>('share_key IS NOT NULL'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_share_turn_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('claimed_at').execute();
  await db.schema.alterTable('jobs').dropColumn('share_key').execute();
}
