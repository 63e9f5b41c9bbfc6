import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/** How far each state's count goes: a scrape every 15 s must stay an index range of bounded length. */
export const JOB_GAUGE_CAP = 10_000;

/**
 * What `/metrics` shows of the jobs table (lib/metrics.ts `giftlens_jobs`, `giftlens_jobs_oldest_due_lag_seconds`),
 * in two statements whose cost follows the waiting and failed jobs, never the done history (1.5 M rows at a million
 * gifts, decision 044):
 * - counts by kind of the queued (jobs_queued_kind_idx: kind is in the index), running (jobs_leased_idx) and dead
 *   (jobs_finished_idx's `dead` range) jobs, each state read up to JOB_GAUGE_CAP rows, grouped in memory of the
 *   database. The statuses are literals, as in the partial indexes' predicates (SQLite matches those terms exactly).
 * - the oldest due instant: the first entry of jobs_queued_idx at or before now, and of jobs_leased_idx (a lapsed lease
 *   is due again), one index probe each.
 */
export async function readJobGauges(db: Executor, now: Date): Promise<{ counts: { kind: string; status: string; count: number }[]; oldestDueLagSeconds: number }> {
  const cap = JOB_GAUGE_CAP;
  const nowIso = now.toISOString();
  const counts = await sql<{ kind: string; status: string; count: number | string }>`
    SELECT kind, status, COUNT(*) AS count FROM (
      SELECT * FROM (SELECT kind, 'queued' AS status FROM jobs WHERE status = 'queued' LIMIT ${cap}) q
      UNION ALL
      SELECT * FROM (SELECT kind, 'running' AS status FROM jobs WHERE status = 'running' LIMIT ${cap}) r
      UNION ALL
      SELECT * FROM (SELECT kind, 'dead' AS status FROM jobs WHERE status = 'dead' AND finished_at IS NOT NULL LIMIT ${cap}) d
    ) waiting GROUP BY kind, status`.execute(db);
  const due = await sql<{ due_at: string | null }>`
    SELECT MIN(due_at) AS due_at FROM (
      SELECT * FROM (SELECT run_at AS due_at FROM jobs WHERE status = 'queued' AND run_at <= ${nowIso} ORDER BY run_at LIMIT 1) q
      UNION ALL
      SELECT * FROM (SELECT locked_until AS due_at FROM jobs WHERE status = 'running' AND locked_until <= ${nowIso} ORDER BY locked_until LIMIT 1) l
    ) due`.execute(db);
  const dueAt = due.rows[0]?.due_at;
  return {
    counts: counts.rows.map((r) => ({ kind: r.kind, status: r.status, count: Number(r.count) })),
    oldestDueLagSeconds: dueAt ? Math.max(0, (now.getTime() - Date.parse(dueAt)) / 1000) : 0,
  };
}
