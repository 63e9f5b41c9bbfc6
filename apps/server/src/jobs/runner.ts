import type { Clock } from '../adapters/clock.ts';
import { type QueryCreator, sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import type { Database, Db } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';
import { randomHex } from '../lib/crypto.ts';
import type { JobRow } from './jobs.table.ts';
import { backoffMs, type JobKind, type JobPayloads, RETRY_POLICIES } from './kinds.ts';

export interface JobContext {
  id: string;
  /** This attempt's number, from 1. */
  attempt: number;
  /** Aborted when the worker stops or loses the job's lease; a handler checks it between steps. */
  signal: AbortSignal;
}

/** What a handler may ask for instead of finishing: run again at this instant (a changed or recurring time). */
export type JobOutcome = void | { rescheduleAt: Date };

export interface JobHandler<K extends JobKind> {
  /** Re-reads the current state; does nothing when its record is gone or already done (so a repeat is harmless). */
  run(payload: JobPayloads[K], ctx: JobContext): Promise<JobOutcome>;
  /** Told once when the job is dead (its last error), so the record can show it. */
  onDead?(payload: JobPayloads[K], error: string): Promise<void>;
}
export type JobHandlers = { [K in JobKind]: JobHandler<K> };

/** A failure no retry will mend (a refused address, a template the provider rejects): the job dies at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface JobLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Told of every run that ended (metrics: lib/metrics.ts), beside the log line: how long the handler ran and, when it
 * finished, how long the job waited after it was due.
 */
export interface JobObserver {
  finished(kind: string, outcome: 'done' | 'rescheduled' | 'retry' | 'dead', ms: number, waitedMs?: number): void;
}

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  handlers: JobHandlers;
  log: JobLog;
  /** Jobs run at the same time in this process. */
  concurrency?: number;
  /** How often an idle worker looks for due jobs. */
  pollMs?: number;
  /** How long a claim holds a job; renewed every third of it while the handler runs. */
  leaseMs?: number;
  /**
   * The kinds this runner claims: only these, or every kind but these. Renders run in a lane of their own so a long
   * ffmpeg never holds up a delivery or a notice (composition.ts). Default: every kind.
   */
  kinds?: { only: readonly JobKind[] } | { except: readonly JobKind[] };
  /** Told of each run's outcome and time (none: only the log). */
  observer?: JobObserver;
  /**
   * Claims queued jobs by turns between shares (each job's share_key) instead of by due instant alone (claimJobs,
   * `fair`): the single messages' conversion lane, so one sender's many conversions never hold another's behind
   * all of theirs (issue 37).
   */
  fair?: boolean;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

export interface ClaimOptions {
  now: Date;
  limit: number;
  leaseMs: number;
  kinds?: JobRunnerOptions['kinds'];
  /** Turns between shares among the queued jobs (below). */
  fair?: boolean;
}

/**
 * How many of the earliest due queued jobs a fair claim takes turns among: its cost follows this, not the backlog.
 * One sender queues at most 30 conversions in 10 minutes (the confirmed-uploads limit), so a share is never
 * hidden behind one other's beyond it.
 */
export const FAIR_WINDOW = 500;

/**
 * Claims up to `limit` due jobs for one lease, in one statement: the earliest due of the queued jobs whose run_at has
 * come and the running ones whose lease ran out (their worker died). Each way of being due is its own branch, read in
 * order from its own partial index and limited (jobs_queued_idx, or jobs_queued_kind_idx for a lane of named kinds;
 * jobs_leased_idx), and the two are merged by their due instant: the cost follows `limit`, not the backlog
 * (decision 044). Each claim writes a fresh lock_token (fencing). The order of the returned rows means nothing.
 */
export async function claimJobs(db: Db, { now, limit, leaseMs, kinds, fair = false }: ClaimOptions): Promise<JobRow[]> {
  const nowIso = now.toISOString();
  const postgres = isPostgres(db);
  const claimed = {
    status: 'running' as const,
    lock_token: randomHex(12),
    locked_until: new Date(now.getTime() + leaseMs).toISOString(),
    updated_at: nowIso,
    claimed_at: nowIso,
  };
  const withDue = fair ? fairlyDue(db, { nowIso, limit, kinds, postgres }) : dueInOrder(db, { nowIso, limit, kinds, postgres });
  if (postgres) {
    // FOR UPDATE SKIP LOCKED in each branch: workers never wait on each other's rows.
    return withDue
      .updateTable('jobs')
      .from('due')
      .set((eb) => ({ ...claimed, attempts: eb('jobs.attempts', '+', 1) }))
      .whereRef('jobs.id', '=', 'due.id')
      .returningAll('jobs')
      .execute();
  }
  // SQLite: one UPDATE takes the database's write lock before it reads, so two processes never claim one job.
  return withDue
    .updateTable('jobs')
    .set((eb) => ({ ...claimed, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
    .returningAll()
    .execute();
}

/**
 * How a claim finds its jobs: a statement whose `due` names them, for claimJobs' UPDATE. (Each way builds more
 * tables of its own before `due`; Kysely's builder types are invariant in them, so each is seen as this.)
 */
type DueJobs = QueryCreator<Database & { due: { id: string } }>;
interface DueOptions {
  nowIso: string;
  limit: number;
  kinds: ClaimOptions['kinds'];
  postgres: boolean;
}

/** The earliest due, of both ways of being due, merged by their due instant. */
function dueInOrder(db: Db, { nowIso, limit, kinds, postgres }: DueOptions): DueJobs {
  const only = kinds && 'only' in kinds ? [...kinds.only] : null;
  const except = kinds && 'except' in kinds ? [...kinds.except] : null;
  // The status is a literal, as in the partial indexes' predicates: SQLite matches those terms exactly.
  const branch = (status: 'queued' | 'running', column: 'run_at' | 'locked_until') => {
    const q = db
      .selectFrom('jobs')
      .select((eb) => ['id', eb.ref(column).as('due_at')])
      .where(sql<boolean>`status = ${sql.lit(status)}`)
      .where(column, '<=', nowIso)
      .$if(only !== null, (w) => w.where('kind', 'in', only!))
      .$if(except !== null, (w) => w.where('kind', 'not in', except!))
      .orderBy(column)
      .limit(limit);
    return postgres ? q.forUpdate().skipLocked() : q;
  };
  return db
    .with('queued', () => branch('queued', 'run_at'))
    // A claim whose worker died: its lease ran out, so the job is due again.
    .with('lapsed', () => branch('running', 'locked_until'))
    .with('due', (w) =>
      w
        .selectFrom((eb) => eb.selectFrom('queued').select(['id', 'due_at']).unionAll(eb.selectFrom('lapsed').select(['id', 'due_at'])).as('d'))
        .select('d.id')
        .orderBy('d.due_at')
        .limit(limit),
    ) as unknown as DueJobs;
}

/**
 * A claim that takes turns between shares (issue 37): of the FAIR_WINDOW earliest due queued jobs, first each
 * share's earliest (then each share's second, and so on), and among those first the share whose last turn (its
 * jobs' newest claimed_at, jobs_share_turn_idx) came longest ago, a share never served first; then by due instant.
 * So a sender with 20 conversions queued and another with one take turns: the one waits behind at most one of the
 * 20 per slot. A job without a share takes a turn of its own. Lapsed leases (a worker died) come before any of them.
 * Each way of being due is read from its own partial index, as claimJobs does; on PostgreSQL only the chosen rows
 * are locked (FOR UPDATE SKIP LOCKED, re-checked as still queued), so concurrent workers never wait on each other
 * and never claim one job twice; on SQLite the one UPDATE holds the write lock throughout.
 */
function fairlyDue(db: Db, { nowIso, limit, kinds, postgres }: DueOptions): DueJobs {
  const only = kinds && 'only' in kinds ? [...kinds.only] : null;
  const except = kinds && 'except' in kinds ? [...kinds.except] : null;
  return db
    .with('candidates', (w) =>
      w
        .selectFrom('jobs')
        .select(['id', 'run_at', 'share_key'])
        .where(sql<boolean>`status = ${sql.lit('queued')}`)
        .where('run_at', '<=', nowIso)
        .$if(only !== null, (q) => q.where('kind', 'in', only!))
        .$if(except !== null, (q) => q.where('kind', 'not in', except!))
        .orderBy('run_at')
        .limit(FAIR_WINDOW),
    )
    // Each share's first, second, … job; a job of no share is its own share.
    .with('turns', (w) =>
      w
        .selectFrom('candidates as c')
        .select([
          'c.id',
          'c.run_at',
          'c.share_key',
          sql<number>`row_number() over (partition by coalesce(c.share_key, c.id) order by c.run_at, c.id)`.as('turn'),
        ]),
    )
    // The order of service: turn, then the share served longest ago (never: '' sorts first on both databases).
    .with('ordered', (w) =>
      w
        .selectFrom('turns as t')
        .select([
          't.id',
          sql<number>`row_number() over (order by t.turn, coalesce((select max(s.claimed_at) from jobs s where s.share_key = t.share_key), ''), t.run_at, t.id)`.as(
            'seq',
          ),
        ]),
    )
    .with('queued', (w) => {
      const q = w
        .selectFrom('jobs')
        .innerJoin('ordered', 'ordered.id', 'jobs.id')
        .select(['jobs.id', 'ordered.seq'])
        .where('ordered.seq', '<=', limit)
        // Re-checked on the row itself: on PostgreSQL, a row another worker claimed meanwhile is no longer queued.
        .where(sql<boolean>`jobs.status = ${sql.lit('queued')}`);
      return postgres ? q.forUpdate(['jobs']).skipLocked() : q;
    })
    // A claim whose worker died: its lease ran out, so the job is due again, before any turn.
    .with('lapsed', (w) => {
      const q = w
        .selectFrom('jobs')
        .select(['id', sql<number>`0`.as('seq')])
        .where(sql<boolean>`status = ${sql.lit('running')}`)
        .where('locked_until', '<=', nowIso)
        .$if(only !== null, (q2) => q2.where('kind', 'in', only!))
        .$if(except !== null, (q2) => q2.where('kind', 'not in', except!))
        .orderBy('locked_until')
        .limit(limit);
      return postgres ? q.forUpdate().skipLocked() : q;
    })
    .with('due', (w) =>
      w
        .selectFrom((eb) => eb.selectFrom('lapsed').select(['id', 'seq']).unionAll(eb.selectFrom('queued').select(['id', 'seq'])).as('d'))
        .select('d.id')
        .orderBy('d.seq')
        .limit(limit),
    ) as unknown as DueJobs;
}

/**
 * The durable job runner (docs/decisions/013-jobs.md): claims due jobs with a lease, one statement per claim
 * (PostgreSQL: FOR UPDATE SKIP LOCKED, so any number of workers share the table; SQLite: the statement's write
 * lock), runs them, and retries failures with exponential back-off until the kind's attempts are spent.
 */
export function createJobRunner({
  db,
  clock,
  handlers,
  log,
  concurrency = 4,
  pollMs = 1000,
  leaseMs = 120_000,
  kinds,
  observer,
  fair = false,
}: JobRunnerOptions) {
  const active = new Set<Promise<void>>();
  const stopping = new AbortController();
  let wakeUp: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  const claim = (limit: number) => claimJobs(db, { now: clock.now(), limit, leaseMs, kinds, fair });

  /** Ends a claim, only if it is still ours (a worker that lost its lease changes nothing). */
  function settle(job: JobRow, values: Partial<Omit<JobRow, 'id'>>) {
    return db
      .updateTable('jobs')
      .set({ ...values, lock_token: null, locked_until: null, updated_at: clock.now().toISOString() })
      .where('id', '=', job.id)
      .where('lock_token', '=', job.lock_token)
      .executeTakeFirst();
  }

  async function die(job: JobRow, error: string, handler: JobHandler<JobKind> | undefined, payload: unknown) {
    const res = await settle(job, { status: 'dead', last_error: error, finished_at: clock.now().toISOString() });
    if (res.numUpdatedRows === 0n) return;
    log.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, error }, 'job: dead');
    if (handler?.onDead) {
      try {
        await handler.onDead(payload as never, error);
      } catch (err) {
        log.error({ err, jobId: job.id }, 'job: onDead failed');
      }
    }
  }

  async function execute(job: JobRow): Promise<void> {
    const handler = (handlers as Record<string, JobHandler<JobKind> | undefined>)[job.kind];
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch {
      return die(job, 'payload is not JSON', handler, null);
    }
    if (!handler) return die(job, `no handler for job kind "${job.kind}"`, handler, payload);
    // Reclaimed after its worker died on the last attempt: that attempt counts, and there is none left.
    if (job.attempts > job.max_attempts) return die(job, job.last_error ?? 'lease expired on the last attempt', handler, payload);

    const lease = new AbortController();
    const abort = () => lease.abort();
    stopping.signal.addEventListener('abort', abort);
    const heartbeat = setInterval(() => {
      db.updateTable('jobs')
        .set({ locked_until: new Date(clock.now().getTime() + leaseMs).toISOString() })
        .where('id', '=', job.id)
        .where('lock_token', '=', job.lock_token)
        .executeTakeFirst()
        .then((res) => {
          if (res.numUpdatedRows === 0n) {
            log.warn({ jobId: job.id }, 'job: lease lost, stopping the handler');
            lease.abort();
          }
        })
        .catch((err: unknown) => log.warn({ err, jobId: job.id }, 'job: lease renewal failed'));
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();

    const started = performance.now();
    try {
      const outcome = await handler.run(payload as never, { id: job.id, attempt: job.attempts, signal: lease.signal });
      if (outcome?.rescheduleAt) {
        await settle(job, { status: 'queued', run_at: outcome.rescheduleAt.toISOString(), attempts: 0, last_error: null });
      } else {
        await settle(job, { status: 'done', last_error: null, finished_at: clock.now().toISOString() });
      }
      // How long it ran, and how long it waited after it was due (a lane's queue): at info, for the operator.
      const waitedMs = Math.max(0, clock.now().getTime() - Date.parse(job.run_at) - (performance.now() - started));
      log.info({ jobId: job.id, kind: job.kind, ms: Math.round(performance.now() - started), waitedMs: Math.round(waitedMs) }, 'job: done');
      observer?.finished(job.kind, outcome?.rescheduleAt ? 'rescheduled' : 'done', performance.now() - started, waitedMs);
    } catch (err) {
      const error = errorText(err);
      if (stopping.signal.aborted) {
        // This process is stopping (SIGTERM, a deploy): the job was interrupted, not at fault. It gets its attempt
        // back and is due again at once, for the next worker (issue 37: three restarts failed a good conversion).
        observer?.finished(job.kind, 'retry', performance.now() - started);
        log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, error }, 'job: interrupted by the worker stopping; its attempt is given back');
        await settle(job, { status: 'queued', run_at: clock.now().toISOString(), attempts: Math.max(0, job.attempts - 1), last_error: `interrupted: ${error}` });
        return;
      }
      const policy = RETRY_POLICIES[job.kind as JobKind];
      const dies = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      observer?.finished(job.kind, dies ? 'dead' : 'retry', performance.now() - started);
      if (dies) {
        await die(job, error, handler, payload);
      } else {
        const wait = backoffMs(policy, job.attempts);
        log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, retryInMs: wait, error }, 'job: failed, will retry');
        await settle(job, {
          status: 'queued',
          run_at: new Date(clock.now().getTime() + wait).toISOString(),
          last_error: error,
        });
      }
    } finally {
      clearInterval(heartbeat);
      stopping.signal.removeEventListener('abort', abort);
    }
  }

  function track(job: JobRow) {
    const p: Promise<void> = execute(job)
      .catch((err: unknown) => log.error({ err, jobId: job.id }, 'job: could not record the outcome'))
      .finally(() => {
        active.delete(p);
        wakeUp?.();
      });
    active.add(p);
  }

  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      const free = concurrency - active.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const jobs = await claim(free);
          claimed = jobs.length;
          for (const job of jobs) track(job);
        } catch (err) {
          log.error({ err }, 'job: claim failed');
        }
      }
      // A full claim means more may be due: go again at once. Otherwise wait for a poll, a wake or a free slot.
      if (claimed < free || active.size >= concurrency) await idle(pollMs);
    }
  }

  return {
    /** Starts the loop; it claims due jobs until stop(). */
    start(): void {
      loop ??= run();
    },
    /** Looks for due jobs now (after an enqueue in this process) instead of at the next poll. */
    wake(): void {
      wakeUp?.();
    },
    /** Ends the loop and waits for the jobs in hand; their handlers see the abort signal. */
    async stop(): Promise<void> {
      stopping.abort();
      wakeUp?.();
      await loop;
      await Promise.allSettled([...active]);
    },
    /**
     * Runs every job due by the clock, and those they enqueue, until none is due (tests and operators).
     * Returns how many ran.
     */
    async runDue(): Promise<number> {
      let ran = 0;
      for (;;) {
        const jobs = await claim(concurrency);
        if (jobs.length === 0) return ran;
        await Promise.all(jobs.map((job) => execute(job)));
        ran += jobs.length;
      }
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

/** Several runners (lanes of kinds, each with its own concurrency) driven as one. */
export function combineRunners(lanes: JobRunner[]): JobRunner {
  return {
    start: () => lanes.forEach((lane) => lane.start()),
    wake: () => lanes.forEach((lane) => lane.wake()),
    stop: async () => {
      await Promise.all(lanes.map((lane) => lane.stop()));
    },
    async runDue() {
      let ran = 0;
      for (;;) {
        const round = (await Promise.all(lanes.map((lane) => lane.runDue()))).reduce((a, b) => a + b, 0);
        if (round === 0) return ran;
        ran += round;
      }
    },
  };
}
