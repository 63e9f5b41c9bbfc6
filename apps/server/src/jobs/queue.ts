import type { Executor } from '../db/database.ts';
import { randomHex } from '../lib/crypto.ts';
import { type JobKind, type JobPayloads, RETRY_POLICIES } from './kinds.ts';

export interface EnqueueOptions {
  /** When it is due; now when absent. */
  runAt?: Date;
  /** At most one job per key: enqueueing the same key again changes nothing and returns null. */
  key?: string;
  /** The gift the job acts on: its jobs go when the gift is deleted (found by this column, decision 044). */
  giftId?: string;
  /** Whose turn it takes in a lane with a fair share (keys.ts senderShare); none: a turn of its own. */
  share?: string;
}

/**
 * Adds a job, in the caller's transaction when given one, so a job exists exactly when the record that wants it
 * does. Returns the new job's id, or null when a job with this key already exists.
 */
export async function enqueue<K extends JobKind>(
  db: Executor,
  now: Date,
  kind: K,
  payload: JobPayloads[K],
  { runAt, key, giftId, share }: EnqueueOptions = {},
): Promise<string | null> {
  const id = randomHex(16);
  const nowIso = now.toISOString();
  const inserted = await db
    .insertInto('jobs')
    .values({
      id,
      kind,
      payload: JSON.stringify(payload),
      key: key ?? null,
      gift_id: giftId ?? null,
      share_key: share ?? null,
      status: 'queued',
      run_at: (runAt ?? now).toISOString(),
      attempts: 0,
      max_attempts: RETRY_POLICIES[kind].maxAttempts,
      lock_token: null,
      locked_until: null,
      last_error: null,
      created_at: nowIso,
      updated_at: nowIso,
      finished_at: null,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/**
 * A job of this key at most once per `gapMs` (from the last run's end): added when new; nothing when one is waiting
 * (it will act on the record as it is then); a finished one is queued again, no sooner than `gapMs` after it ended.
 */
export async function enqueueAtMostEvery<K extends JobKind>(
  db: Executor,
  now: Date,
  kind: K,
  payload: JobPayloads[K],
  { key, giftId, gapMs }: { key: string; giftId?: string; gapMs: number },
): Promise<void> {
  if (await enqueue(db, now, kind, payload, { key, giftId })) return;
  const row = await db.selectFrom('jobs').select(['status', 'finished_at']).where('key', '=', key).executeTakeFirst();
  if (!row || row.status === 'queued' || row.status === 'running') return;
  const ended = row.finished_at ? Date.parse(row.finished_at) : now.getTime();
  await requeueJob(db, key, new Date(Math.max(now.getTime(), ended + gapMs)), now);
}

/** A waiting job whose record no longer wants it; a claimed one finds its record cancelled and does nothing. */
export async function cancelJob(db: Executor, key: string, now: Date): Promise<void> {
  const nowIso = now.toISOString();
  await db
    .updateTable('jobs')
    .set({ status: 'cancelled', updated_at: nowIso, finished_at: nowIso })
    .where('key', '=', key)
    .where('status', '=', 'queued')
    .execute();
}

/**
 * Gives a dead (or finished) job a fresh set of attempts at `runAt`; a waiting one just moves. Returns whether a
 * job was there to move (housekeeping deletes dead jobs after 30 days; a claimed one follows its record).
 */
export async function requeueJob(db: Executor, key: string, runAt: Date, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      run_at: runAt.toISOString(),
      attempts: 0,
      last_error: null,
      finished_at: null,
      updated_at: now.toISOString(),
    })
    .where('key', '=', key)
    .where('status', 'in', ['queued', 'dead', 'cancelled', 'done'])
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * A recurring job (one per key) that exists and is waiting: added when missing, revived when it died. Safe for
 * every worker to call at start.
 */
export async function ensureRecurringJob<K extends JobKind>(
  db: Executor,
  now: Date,
  kind: K,
  payload: JobPayloads[K],
  key: string,
  firstRunAt: Date,
): Promise<void> {
  await enqueue(db, now, kind, payload, { key, runAt: firstRunAt });
  await db
    .updateTable('jobs')
    .set({ status: 'queued', run_at: firstRunAt.toISOString(), attempts: 0, finished_at: null, updated_at: now.toISOString() })
    .where('key', '=', key)
    .where('status', 'in', ['dead', 'cancelled', 'done'])
    .execute();
}
