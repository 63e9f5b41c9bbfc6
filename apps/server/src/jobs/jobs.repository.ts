import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { countUpTo } from '../db/sweep.ts';
import type { JobStatus } from './jobs.table.ts';

// The jobs table's queries beyond enqueueing (queue.ts) and running (runner.ts): what deleting a gift and
// housekeeping ask of it. Jobs name their gift in gift_id, not by a foreign key, so nothing cascades here.

/**
 * Deletes every job that would still act on these gifts: their deliveries' sends, notices, renders and the payment
 * confirmation. Each carries its gift's id (enqueued with keys.ts's `…Job` helpers, older ones backfilled from their
 * keys by migration 20261126130000_flat_costs): one statement on jobs_gift_idx (decision 044).
 */
export async function deleteJobsOfGifts(db: Executor, giftIds: string[]): Promise<void> {
  if (giftIds.length === 0) return;
  await db.deleteFrom('jobs').where('gift_id', 'in', giftIds).execute();
}

/**
 * jobs_render_leftovers_idx's predicate, spelled as it is there (SQLite matches a partial index's terms exactly, so
 * the kinds are literals, not parameters): ended jobs of `kinds` retried or not done.
 */
const leftoverPredicate = (kinds: readonly string[]) =>
  sql<boolean>`kind IN (${sql.join(kinds.map((k) => sql.lit(k)))}) AND finished_at IS NOT NULL AND (attempts > 1 OR status <> 'done') AND leftovers_swept_at IS NULL`;

const endedJobsAfter = (db: Executor, kinds: readonly string[], cutoff: string, afterId: string) =>
  db.selectFrom('jobs').select(['id', 'payload', 'attempts']).where(leftoverPredicate(kinds)).where('finished_at', '<', cutoff).where('id', '>', afterId);

/**
 * Jobs of these kinds that ended (done, dead or cancelled) before `cutoff` and may have left files behind: every one
 * that took more than one attempt or did not finish well, and has not been looked at since (markLeftoversSwept). In
 * id order after `afterId`, at most `limit`.
 */
export function endedJobsWithLeftovers(db: Executor, kinds: readonly string[], cutoff: string, afterId: string, limit: number) {
  return endedJobsAfter(db, kinds, cutoff, afterId).orderBy('id').limit(limit).execute();
}

/** These ended jobs' leftovers are gone: later runs no longer look at them (they leave jobs_render_leftovers_idx). */
export async function markLeftoversSwept(db: Executor, ids: string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('jobs').set({ leftovers_swept_at: now }).where('id', 'in', ids).execute();
}

export const endedJobsWithLeftoversLeft = (db: Executor, kinds: readonly string[], cutoff: string, afterId: string) =>
  countUpTo(db, endedJobsAfter(db, kinds, cutoff, afterId));

/** Jobs finished before `before` in these states (jobs_finished_idx: status, then finished_at). */
const finishedJobs = (db: Executor, statuses: JobStatus[], before: string) =>
  db
    .selectFrom('jobs')
    .select('id')
    .where('status', 'in', statuses)
    .where(sql<boolean>`finished_at IS NOT NULL`)
    .where('finished_at', '<', before);

/**
 * Finished jobs (done or cancelled) finished before `finishedBefore`, then dead ones before `deadBefore`: at most
 * `limit` of each, each read from its own range of jobs_finished_idx.
 */
export async function deleteOldJobs(db: Executor, finishedBefore: string, deadBefore: string, limit: number): Promise<number> {
  let deleted = 0;
  for (const [statuses, before] of [
    [['done', 'cancelled'], finishedBefore],
    [['dead'], deadBefore],
  ] as const) {
    const res = await db
      .deleteFrom('jobs')
      .where('id', 'in', finishedJobs(db, [...statuses], before).limit(limit))
      .executeTakeFirst();
    deleted += Number(res.numDeletedRows);
  }
  return deleted;
}

export const oldJobsLeft = async (db: Executor, finishedBefore: string, deadBefore: string) =>
  (await countUpTo(db, finishedJobs(db, ['done', 'cancelled'], finishedBefore))) + (await countUpTo(db, finishedJobs(db, ['dead'], deadBefore)));

// The staff console's queue view and a gift's timeline (modules/staff).

/** How many jobs there are of each kind in each waiting or failed state (done and cancelled ones are history). */
export const jobCountsByKind = (db: Executor) =>
  db
    .selectFrom('jobs')
    .select(['kind', 'status', (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('status', 'in', ['queued', 'running', 'dead'])
    .groupBy(['kind', 'status'])
    .orderBy('kind')
    .orderBy('status')
    .execute();

/** When the oldest queued job that is due now was due (null: none), on jobs_queued_idx. */
export const oldestDueRunAt = async (db: Executor, now: string): Promise<string | null> =>
  (
    await db
      .selectFrom('jobs')
      .select('run_at')
      .where('status', '=', 'queued')
      .where('run_at', '<=', now)
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst()
  )?.run_at ?? null;

/** The newest dead jobs with their last error. */
export const deadJobs = (db: Executor, limit: number) =>
  db
    .selectFrom('jobs')
    .select(['id', 'kind', 'gift_id', 'last_error', 'attempts', 'finished_at'])
    .where('status', '=', 'dead')
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .execute();

export const findJob = (db: Executor, id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();

/** A dead job runs again now with fresh attempts (its last error is kept until it runs); false unless it was dead. */
export async function retryDeadJob(db: Executor, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ status: 'queued', run_at: now, attempts: 0, finished_at: null, lock_token: null, locked_until: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'dead')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** A gift's jobs (renders, deliveries, notices), oldest first, on jobs_gift_idx. */
export const jobsOfGift = (db: Executor, giftId: string, limit: number) =>
  db
    .selectFrom('jobs')
    .select(['id', 'kind', 'status', 'attempts', 'last_error', 'created_at', 'finished_at', 'payload'])
    .where('gift_id', '=', giftId)
    .orderBy('created_at')
    .limit(limit)
    .execute();
