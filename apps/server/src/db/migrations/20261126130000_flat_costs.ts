import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

// Costs that stay flat as the data grows (issue 26, decision 044): every background and deletion query is served by
// an index, partial where its predicate is fixed (the queries spell those predicates with the same literals, so
// SQLite, which matches a partial index's terms exactly, uses them too); and a job that belongs to a gift carries
// the gift's id, backfilled here from the keys the code wrote so far.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('gift_id', 'text').execute();
  // When housekeeping last looked for files an ended render job left behind: it looks once, not every run.
  await db.schema.alterTable('jobs').addColumn('leftovers_swept_at', 'text').execute();
  const index = (name: string, table: string, columns: string[], where?: string) => {
    const q = db.schema.createIndex(name).on(table).columns(columns);
    return (where ? q.where(sql.raw<boolean>(where)) : q).execute();
  };

  // jobs: a gift's jobs; the claim's two branches; finished jobs by age; render jobs that may have left files.
  await index('jobs_gift_idx', 'jobs', ['gift_id']);
  await db.schema.dropIndex('jobs_due_idx').execute();
  await db.schema.dropIndex('jobs_lease_idx').execute();
  await index('jobs_queued_idx', 'jobs', ['run_at'], `status = 'queued'`);
  await index('jobs_queued_kind_idx', 'jobs', ['kind', 'run_at'], `status = 'queued'`);
  await index('jobs_leased_idx', 'jobs', ['locked_until'], `status = 'running'`);
  await index('jobs_finished_idx', 'jobs', ['status', 'finished_at'], `finished_at IS NOT NULL`);
  await index(
    'jobs_render_leftovers_idx',
    'jobs',
    ['id'],
    `kind IN ('message.render', 'reaction.render') AND finished_at IS NOT NULL AND (attempts > 1 OR status <> 'done') AND leftovers_swept_at IS NULL`,
  );

  // The backfill comes after the jobs' indexes, which it then keeps up to date: an index built on rows this
  // transaction has just updated is marked (PostgreSQL's indcheckxmin) unusable to any query whose snapshot is older
  // than the migration, so while a long transaction ran anywhere on the server the claim would still scan every job.
  // Keys: `media:{gift}:{file}` (renders), `notice:{event}:{gift}[:…]`, `payment-confirmation:{gift}`,
  // `delivery:{delivery}` (the delivery names its gift).
  if (isPostgres(db)) {
    await sql`UPDATE jobs SET gift_id = split_part(key, ':', 2) WHERE key LIKE 'media:%'`.execute(db);
    await sql`UPDATE jobs SET gift_id = split_part(key, ':', 3) WHERE key LIKE 'notice:%'`.execute(db);
  } else {
    await sql`UPDATE jobs SET gift_id = substr(key, 7, instr(substr(key, 7), ':') - 1) WHERE key LIKE 'media:%'`.execute(db);
    // after the event: `{gift}` or `{gift}:…`
    const rest = sql`substr(key, 8 + instr(substr(key, 8), ':'))`;
    await sql`UPDATE jobs SET gift_id = CASE instr(${rest}, ':') WHEN 0 THEN ${rest} ELSE substr(${rest}, 1, instr(${rest}, ':') - 1) END
              WHERE key LIKE 'notice:%'`.execute(db);
  }
  await sql`UPDATE jobs SET gift_id = substr(key, 22) WHERE key LIKE 'payment-confirmation:%'`.execute(db);
  await sql`UPDATE jobs SET gift_id = (SELECT m.gift_id FROM scheduled_messages m WHERE m.id = substr(jobs.key, 10))
            WHERE key LIKE 'delivery:%'`.execute(db);

  // gifts: stale unpaid ones, paid ones still holding content, and the paths a file sweep asks about.
  await index('gifts_unpaid_idx', 'gifts', ['updated_at'], `paid_at IS NULL AND status <> 'active'`);
  await index('gifts_content_idx', 'gifts', ['plan_id', 'paid_at'], `paid_at IS NOT NULL AND (message_path IS NOT NULL OR message_text IS NOT NULL)`);
  await index('gifts_message_path_idx', 'gifts', ['message_path'], `message_path IS NOT NULL`);
  await index('gifts_poster_path_idx', 'gifts', ['message_poster_path'], `message_poster_path IS NOT NULL`);
  await index('gift_photos_storage_path_idx', 'gift_photos', ['storage_path']);
  await index('gift_photos_unrated_idx', 'gift_photos', ['id'], `rating IS NULL`);
  await index('reactions_file_path_idx', 'reactions', ['file_path'], `file_path IS NOT NULL`);
  await index('reactions_poster_path_idx', 'reactions', ['poster_path'], `poster_path IS NOT NULL`);

  // What hangs off a sender (a deletion, and the foreign-key checks of one), and the sweeps by age. (A gift's
  // upload intents and reveal grants have theirs from 20261126120000_on_delete.)
  await index('upload_intents_expires_idx', 'upload_intents', ['expires_at']);
  await index('scheduled_messages_sender_idx', 'scheduled_messages', ['sender_id']);
  await index('sessions_subject_idx', 'sessions', ['subject', 'kind']);
  await index('sessions_expires_idx', 'sessions', ['expires_at']);
  await index('verification_codes_expires_idx', 'verification_codes', ['expires_at']);
  await index('code_resends_sent_idx', 'code_resends', ['sent_at']);
  await index('webhook_events_received_idx', 'webhook_events', ['received_at']);
  await index('orders_paid_idx', 'orders', ['paid_at'], `paid_at IS NOT NULL`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'orders_paid_idx',
    'webhook_events_received_idx',
    'code_resends_sent_idx',
    'verification_codes_expires_idx',
    'sessions_expires_idx',
    'sessions_subject_idx',
    'scheduled_messages_sender_idx',
    'upload_intents_expires_idx',
    'reactions_poster_path_idx',
    'reactions_file_path_idx',
    'gift_photos_unrated_idx',
    'gift_photos_storage_path_idx',
    'gifts_poster_path_idx',
    'gifts_message_path_idx',
    'gifts_content_idx',
    'gifts_unpaid_idx',
    'jobs_render_leftovers_idx',
    'jobs_finished_idx',
    'jobs_leased_idx',
    'jobs_queued_kind_idx',
    'jobs_queued_idx',
    'jobs_gift_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('jobs_lease_idx').on('jobs').columns(['status', 'locked_until']).execute();
  await db.schema.alterTable('jobs').dropColumn('leftovers_swept_at').execute();
  await db.schema.alterTable('jobs').dropColumn('gift_id').execute();
}
