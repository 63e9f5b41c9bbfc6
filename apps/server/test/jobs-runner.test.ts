import { expect, vi } from 'vitest';
import path from 'node:path';
import { createOutboxMailer } from '../src/adapters/mail.ts';
import { createScratch } from '../src/adapters/scratch.ts';
import { jobHandlers, jobLanes } from '../src/composition.ts';
import { HOUSEKEEPING_JOB_KEY, renderJob } from '../src/jobs/keys.ts';
import { enqueue } from '../src/jobs/queue.ts';
import type { JobKind } from '../src/jobs/kinds.ts';
import { claimJobs, combineRunners, createJobRunner, type JobHandlers, type JobRunnerOptions } from '../src/jobs/runner.ts';
import { RENDER_JOB_KINDS } from '../src/modules/renditions/renditions.jobs.ts';
import {
  HOUSEKEEPING_FIRST_DELAY_MS,
  HOUSEKEEPING_INTERVAL_MS,
  scheduleHousekeeping,
} from '../src/modules/housekeeping/housekeeping.jobs.ts';
import { describeEachDatabase, it, PUBLIC_ORIGIN, SESSION_SECRET, type Harness } from './helpers/harness.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The real handler table, with some kinds replaced by test doubles. */
function runnerWith(h: Harness, overrides: Partial<JobHandlers>, opts: Pick<JobRunnerOptions, 'leaseMs' | 'pollMs' | 'concurrency' | 'kinds' | 'fair'> = {}) {
  const handlers = jobHandlers({
    db: h.db,
    clock: h.clock,
    mailer: createOutboxMailer(h.outboxDir, 'GiftLens <no-reply@giftlens.test>', () => undefined),
    media: h.media,
    processor: null,
    scratch: createScratch(path.join(h.dataDir, 'scratch')),
    push: h.push,
    whatsapp: null,
    publicOrigin: PUBLIC_ORIGIN,
    sessionSecret: SESSION_SECRET,
    log: quiet,
  });
  return createJobRunner({ db: h.db, clock: h.clock, log: quiet, handlers: { ...handlers, ...overrides }, ...opts });
}

const housekeepingJob = (h: Harness) =>
  h.db.selectFrom('jobs').selectAll().where('key', '=', HOUSEKEEPING_JOB_KEY).executeTakeFirst();

describeEachDatabase('the job runner', (get) => {
  it('renders run in a lane of their own: a long render holds up no delivery (one lane of 1 would)', async () => {
    const h = get();
    await h.db.deleteFrom('jobs').execute();
    let release: () => void = () => undefined;
    const rendering = new Promise<void>((resolve) => (release = resolve));
    let renderStarted = false;
    const delivered: string[] = [];
    const overrides: Partial<JobHandlers> = {
      'message.render': { run: async () => void ((renderStarted = true), await rendering) },
      'delivery.send': { run: ({ deliveryId }) => Promise.resolve(void delivered.push(deliveryId)) },
    };
    const lane = (concurrency: number, kinds?: { only: readonly JobKind[] } | { except: readonly JobKind[] }) =>
      runnerWith(h, overrides, { pollMs: 20, concurrency, kinds });
    const until = (what: () => boolean) => vi.waitFor(() => expect(what()).toBe(true), { timeout: 10_000, interval: 10 });
    // Each time a lane's loop goes round idle it sets a timer of its poll (20 ms).
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const rounds = () => timers.mock.calls.filter(([, ms]) => ms === 20).length;

    // One lane, one slot (the old runner with JOB_CONCURRENCY=1): the delivery waits for the render.
    await enqueue(h.db, h.clock.now(), 'message.render', { giftId: 'a'.repeat(32), key: 'gifts/a/message-1.webm' });
    await enqueue(h.db, new Date(h.clock.now().getTime() + 1), 'delivery.send', { deliveryId: 'first' });
    h.clock.advance(10);
    const single = lane(1);
    single.start();
    await until(() => renderStarted);
    // The loop goes round three more times with its one slot taken, and the delivery still waits.
    const seen = rounds();
    await until(() => rounds() >= seen + 3);
    expect(delivered).toEqual([]);
    release();
    // Only once the render let go of the one slot.
    await until(() => delivered.includes('first'));
    await single.stop();

    // Lanes as the server runs them: renders alone, everything else beside them.
    renderStarted = false;
    const held = new Promise<void>((resolve) => (release = resolve));
    overrides['message.render'] = { run: async () => void ((renderStarted = true), await held) };
    await enqueue(h.db, h.clock.now(), 'message.render', { giftId: 'b'.repeat(32), key: 'gifts/b/message-1.webm' });
    await enqueue(h.db, new Date(h.clock.now().getTime() + 1), 'delivery.send', { deliveryId: 'second' });
    h.clock.advance(10);
    const lanes = combineRunners([lane(1, { except: RENDER_JOB_KINDS }), lane(1, { only: RENDER_JOB_KINDS })]);
    lanes.start();
    await until(() => renderStarted);
    await until(() => delivered.includes('second'));
    release();
    await lanes.stop();
    timers.mockRestore();
  });

  it('housekeeping is one recurring job: a minute after start, then hourly; a dead one is revived at start', async () => {
    const h = get();
    await scheduleHousekeeping(h.db, h.clock);
    await scheduleHousekeeping(h.db, h.clock); // a second worker starting: still one job
    expect(await h.db.selectFrom('jobs').select('id').where('kind', '=', 'housekeeping').execute()).toHaveLength(1);
    const first = await housekeepingJob(h);
    expect(first?.run_at).toBe(new Date(h.clock.now().getTime() + HOUSEKEEPING_FIRST_DELAY_MS).toISOString());

    const ran = vi.fn(() => Promise.resolve({ rescheduleAt: new Date(h.clock.now().getTime() + HOUSEKEEPING_INTERVAL_MS) }));
    const runner = runnerWith(h, { housekeeping: { run: ran } });
    expect(await runner.runDue()).toBe(0);
    h.clock.advance(HOUSEKEEPING_FIRST_DELAY_MS);
    expect(await runner.runDue()).toBe(1);
    expect(ran).toHaveBeenCalledTimes(1);
    expect(await housekeepingJob(h)).toMatchObject({
      status: 'queued',
      attempts: 0,
      run_at: new Date(h.clock.now().getTime() + HOUSEKEEPING_INTERVAL_MS).toISOString(),
      lock_token: null,
    });

    await h.db.updateTable('jobs').set({ status: 'dead' }).where('key', '=', HOUSEKEEPING_JOB_KEY).execute();
    await scheduleHousekeeping(h.db, h.clock);
    expect(await housekeepingJob(h)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('a claim takes the earliest due of both kinds, queued by run_at and lapsed leases by locked_until, merged', async () => {
    const h = get();
    await h.db.deleteFrom('jobs').execute();
    const now = h.clock.now().getTime();
    const at = (s: number) => new Date(now + s * 1000).toISOString();
    const job = (id: string, status: 'queued' | 'running', runAt: string, lockedUntil: string | null, kind = 'notice.mail') => ({
      id,
      kind,
      payload: '{}',
      key: null,
      gift_id: null,
      status,
      run_at: runAt,
      attempts: status === 'running' ? 1 : 0,
      max_attempts: 6,
      lock_token: status === 'running' ? 'dead-worker' : null,
      locked_until: lockedUntil,
      last_error: null,
      created_at: at(-100),
      updated_at: at(-100),
      finished_at: null,
    });
    await h.db
      .insertInto('jobs')
      .values([
        job('q1', 'queued', at(-40), null),
        job('l1', 'running', at(-90), at(-30)),
        job('q2', 'queued', at(-20), null),
        job('l2', 'running', at(-80), at(-10)),
        job('r1', 'queued', at(-50), null, 'message.render'),
        job('future', 'queued', at(60), null),
        job('live', 'running', at(-70), at(60)),
      ])
      .execute();
    const claim = async (limit: number, kinds?: JobRunnerOptions['kinds']) =>
      (await claimJobs(h.db, { now: h.clock.now(), limit, leaseMs: 120_000, kinds })).map((j) => j.id).sort();

    // The main lane: the three earliest of q1 (-40 s), l1 (-30 s), q2 (-20 s), l2 (-10 s); not by branch.
    expect(await claim(3, { except: RENDER_JOB_KINDS })).toEqual(['l1', 'q1', 'q2']);
    expect(await claim(3, { except: RENDER_JOB_KINDS })).toEqual(['l2']);
    expect(await claim(3, { except: RENDER_JOB_KINDS })).toEqual([]);
    // The render lane takes only its own; then nothing is due but what the clock has not reached.
    expect(await claim(3, { only: RENDER_JOB_KINDS })).toEqual(['r1']);
    expect(await claim(3)).toEqual([]);
    const claimed = await h.db.selectFrom('jobs').select(['id', 'status', 'attempts']).where('id', 'in', ['q1', 'l1']).orderBy('id').execute();
    expect(claimed).toEqual([
      { id: 'l1', status: 'running', attempts: 2 },
      { id: 'q1', status: 'running', attempts: 1 },
    ]);
    // Two minutes on: every lease ran out and the future job is due.
    h.clock.advance(121_000);
    expect(await claim(10)).toEqual(['future', 'l1', 'l2', 'live', 'q1', 'q2', 'r1']);
    await h.db.deleteFrom('jobs').execute();
    await scheduleHousekeeping(h.db, h.clock);
  });

  it('the real housekeeping job runs the service and reschedules itself', async () => {
    const h = get();
    await h.db.deleteFrom('jobs').where('key', '=', HOUSEKEEPING_JOB_KEY).execute();
    await scheduleHousekeeping(h.db, h.clock);
    h.clock.advance(HOUSEKEEPING_FIRST_DELAY_MS);
    // A finished job older than a week is one of the things it removes.
    const old = await enqueue(h.db, new Date(h.clock.now().getTime() - 9 * 86_400_000), 'notice.fanout', { event: 'opened', giftId: 'f'.repeat(32) });
    await h.db.updateTable('jobs').set({ status: 'done', finished_at: new Date(h.clock.now().getTime() - 8 * 86_400_000).toISOString() }).where('id', '=', old!).execute();
    expect(await h.jobs.runDue()).toBe(1);
    expect(await h.db.selectFrom('jobs').select('id').where('id', '=', old!).execute()).toHaveLength(0);
    expect((await housekeepingJob(h))?.status).toBe('queued');
  });

  it('a job of an unknown kind, or reclaimed after its last attempt’s worker died, is dead with the reason', async () => {
    const h = get();
    const now = h.clock.now();
    const unknown = await enqueue(h.db, now, 'notice.mail', { event: 'opened', giftId: 'a'.repeat(32) });
    await h.db.updateTable('jobs').set({ kind: 'no.such.kind' }).where('id', '=', unknown!).execute();

    const onDead = vi.fn(() => Promise.resolve());
    const run = vi.fn(() => Promise.resolve());
    const runner = runnerWith(h, { 'notice.mail': { run, onDead } });
    const crashed = await enqueue(h.db, now, 'notice.mail', { event: 'reaction', giftId: 'b'.repeat(32) });
    // Its worker claimed the last attempt and died; the lease has run out.
    await h.db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 6, max_attempts: 6, lock_token: 'gone', locked_until: now.toISOString(), last_error: 'socket hang up' })
      .where('id', '=', crashed!)
      .execute();

    expect(await runner.runDue()).toBe(2);
    const rows = await h.db.selectFrom('jobs').selectAll().where('id', 'in', [unknown!, crashed!]).execute();
    expect(rows.find((r) => r.id === unknown)).toMatchObject({ status: 'dead', last_error: 'no handler for job kind "no.such.kind"' });
    expect(rows.find((r) => r.id === crashed)).toMatchObject({ status: 'dead', last_error: 'socket hang up' });
    expect(run).not.toHaveBeenCalled();
    expect(onDead).toHaveBeenCalledWith({ event: 'reaction', giftId: 'b'.repeat(32) }, 'socket hang up');
  });

  it('a long handler keeps its lease; a handler whose lease was taken is told to stop and changes nothing', async () => {
    const h = get();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let release: () => void = () => undefined;
      let seen: AbortSignal | null = null;
      const runner = runnerWith(
        h,
        {
          'notice.fanout': {
            run: (_p, ctx) =>
              new Promise<void>((resolve) => {
                seen = ctx.signal;
                release = resolve;
              }),
          },
        },
        { leaseMs: 30_000 },
      );
      const id = await enqueue(h.db, h.clock.now(), 'notice.fanout', { event: 'opened', giftId: 'c'.repeat(32) });
      const done = runner.runDue();
      await vi.waitFor(() => expect(seen).not.toBeNull());
      const lease = async () => (await h.db.selectFrom('jobs').select(['locked_until', 'lock_token']).where('id', '=', id!).executeTakeFirstOrThrow());
      const before = await lease();

      h.clock.advance(20_000);
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(async () => expect((await lease()).locked_until).not.toBe(before.locked_until));
      expect(Date.parse((await lease()).locked_until!)).toBe(h.clock.now().getTime() + 30_000);

      // Another worker took it over (its lease had run out on that worker's clock): this one is told to stop.
      await h.db.updateTable('jobs').set({ lock_token: 'someone-else' }).where('id', '=', id!).execute();
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(() => expect(seen?.aborted).toBe(true));
      release();
      await done;
      expect(await h.db.selectFrom('jobs').select(['status', 'lock_token']).where('id', '=', id!).executeTakeFirstOrThrow()).toEqual({
        status: 'running',
        lock_token: 'someone-else',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a conversion interrupted by the worker stopping (SIGTERM) gets its attempt back: restarts never fail it (issue 37)', async () => {
    const h = get();
    await h.db.deleteFrom('jobs').execute();
    const id = await enqueue(h.db, h.clock.now(), 'message.render', { giftId: 'e'.repeat(32), key: 'gifts/x/message.mp4' });
    const maxAttempts = (await h.db.selectFrom('jobs').select('max_attempts').where('id', '=', id!).executeTakeFirstOrThrow()).max_attempts;
    // More restarts than the kind has attempts, each in the middle of the conversion.
    for (let restart = 0; restart <= maxAttempts; restart++) {
      let started: () => void = () => undefined;
      const running = new Promise<void>((resolve) => (started = resolve));
      const runner = runnerWith(h, {
        'message.render': {
          run: (_payload, ctx) =>
            new Promise<void>((_resolve, reject) => {
              started();
              // ffmpeg killed by the stopping worker's abort signal.
              ctx.signal.addEventListener('abort', () => reject(new Error('ffmpeg was stopped (SIGTERM)')));
            }),
        },
      }, { pollMs: 20, kinds: { only: ['message.render'] } });
      runner.start();
      await running;
      await runner.stop();
      const row = await h.db.selectFrom('jobs').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
      expect(row, `restart ${restart + 1}`).toMatchObject({ status: 'queued', attempts: 0 });
      expect(row.last_error).toMatch(/^interrupted: ffmpeg was stopped/);
    }
    // The next worker that runs it to the end finishes it.
    const done = runnerWith(h, { 'message.render': { run: () => Promise.resolve() } });
    expect(await done.runDue()).toBe(1);
    expect((await h.db.selectFrom('jobs').select('status').where('id', '=', id!).executeTakeFirstOrThrow()).status).toBe('done');
  });

  // The single messages' lane as the server runs it (composition.ts jobLanes), with RENDER_CONCURRENCY 1 and 2.
  const messageLane = (renderConcurrency: number) => {
    const lane = jobLanes({ jobConcurrency: 4, renderConcurrency, groupRenderConcurrency: 1 }).find((l) => 'only' in l.kinds && l.kinds.only.includes('message.render'));
    if (!lane) throw new Error('no lane runs message.render');
    return lane;
  };
  /** `n` conversions of sender `who`'s gifts, due from `dueAt` on, a millisecond apart: their keys name the sender. */
  const conversions = async (h: Harness, who: string, n: number, dueAt: number) => {
    for (let i = 0; i < n; i++) {
      const giftId = who.repeat(32).slice(0, 32);
      const key = `gifts/${who}/message-${i}.mp4`;
      await enqueue(h.db, h.clock.now(), 'message.render', { giftId, key }, { ...renderJob(giftId, key, `sender-${who}`), runAt: new Date(dueAt + i) });
    }
  };
  const senderOf = (key: string) => key.split('/')[1]!;

  it('senders take turns in the single messages’ lane: one sender’s 20 conversions hold another’s behind at most one of theirs (issue 37)', async () => {
    const h = get();
    await h.db.deleteFrom('jobs').execute();
    const t0 = h.clock.now().getTime();
    // Sender a queued 20 conversions; then b one, then c two.
    await conversions(h, 'a', 20, t0 - 60_000);
    await conversions(h, 'b', 1, t0 - 30_000);
    await conversions(h, 'c', 2, t0 - 20_000);
    const ran: string[] = [];
    const runner = runnerWith(
      h,
      // Each conversion takes a second.
      { 'message.render': { run: ({ key }) => Promise.resolve(void (ran.push(senderOf(key)), h.clock.advance(1000))) } },
      { ...messageLane(1), pollMs: 20 },
    );
    expect(await runner.runDue()).toBe(23);
    // One slot: a's first (it was first due), then b's and c's first turns, then a (served longest ago), then c's
    // second; a's other 17 after. In order of due instants b would have been 21st.
    expect(ran.slice(0, 5)).toEqual(['a', 'b', 'c', 'a', 'c']);
    expect(ran.slice(5)).toEqual(Array(18).fill('a'));

    // Two slots (RENDER_CONCURRENCY=2): a's 20 and b's one are claimed together, b's at once.
    await h.db.deleteFrom('jobs').execute();
    const t1 = h.clock.now().getTime();
    await conversions(h, 'a', 20, t1 - 60_000);
    await conversions(h, 'b', 1, t1 - 30_000);
    const first = await claimJobs(h.db, { now: h.clock.now(), limit: 2, leaseMs: 120_000, ...messageLane(2) });
    expect(first.map((j) => senderOf((JSON.parse(j.payload) as { key: string }).key)).sort()).toEqual(['a', 'b']);
    await h.db.deleteFrom('jobs').execute();
  });

  it('two workers taking turns in the single messages’ lane run each conversion exactly once', async () => {
    const h = get();
    await h.db.deleteFrom('jobs').execute();
    const t0 = h.clock.now().getTime();
    for (const [i, who] of ['a', 'b', 'c', 'd'].entries()) await conversions(h, who, 10, t0 - 60_000 + i * 100);
    const ran: string[] = [];
    const slow = { 'message.render': { run: async ({ key }: { key: string }) => void (ran.push(key), await new Promise((r) => setTimeout(r, 5))) } };
    const workers = [runnerWith(h, slow, { ...messageLane(2), pollMs: 10 }), runnerWith(h, slow, { ...messageLane(2), pollMs: 10 })];
    workers.forEach((w) => w.start());
    await vi.waitFor(() => expect(ran.length).toBeGreaterThanOrEqual(40), { timeout: 20_000, interval: 20 });
    await Promise.all(workers.map((w) => w.stop()));
    expect(ran).toHaveLength(40);
    expect(new Set(ran).size).toBe(40);
    const left = await h.db.selectFrom('jobs').select('status').where('status', '<>', 'done').execute();
    expect(left).toEqual([]);
  });

  it('the loop picks up a job enqueued in this process at once (wake), and stop() waits for jobs in hand', async () => {
    const h = get();
    const order: string[] = [];
    const runner = runnerWith(
      h,
      {
        'notice.fanout': {
          // In hand until the worker stops, then still a turn of I/O from done: a stop() that did not wait for it
          // would end first.
          run: async (_payload, { signal }) => {
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
            await new Promise((resolve) => setImmediate(resolve));
            order.push('job finished');
          },
        },
      },
      { pollMs: 60_000 },
    );
    const timers = vi.spyOn(globalThis, 'setTimeout');
    runner.start();
    // The loop has looked once and is idle, waiting a minute for its next poll: only a wake finds the job now.
    await vi.waitFor(() => expect(timers.mock.calls.some(([, ms]) => ms === 60_000)).toBe(true));
    timers.mockRestore();
    const id = await enqueue(h.db, h.clock.now(), 'notice.fanout', { event: 'opened', giftId: 'd'.repeat(32) });
    const started = Date.now();
    runner.wake();
    await vi.waitFor(async () => {
      const row = await h.db.selectFrom('jobs').select('status').where('id', '=', id!).executeTakeFirstOrThrow();
      expect(row.status).toBe('running');
    });
    await runner.stop().then(() => order.push('stopped'));
    expect(order).toEqual(['job finished', 'stopped']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await h.db.selectFrom('jobs').select('status').where('id', '=', id!).executeTakeFirstOrThrow()).status).toBe('done');
  });
});
