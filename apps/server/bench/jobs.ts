/**
 * npm run bench:jobs [-- --n N] [--concurrency C] [--rate R] [--steady-s S]
 * The durable job runner's delivery throughput and lag, with 1 and then 2 real worker processes
 * (apps/server/src/worker.ts) sending to a real SMTP server on 127.0.0.1, on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL, or postgres://postgres@127.0.0.1:5432/test; skipped when unreachable). Each run:
 *   - a burst: N e-mail deliveries (default 600) all due at one instant T0. Throughput: N / (last sent_at − T0).
 *     Its lags mostly measure the queue draining (the last one waits about N / throughput).
 *   - then a steady stream: one delivery due every 60/R s (default R = 600 a minute) for S s (default 30). Its lags
 *     are what a delivery waits beyond its instant under that load.
 * Lag: sent_at − scheduled_at per delivery. The baseline is the same N mails sent straight through the SMTP
 * adapter (nodemailer), C at a time (JOB_CONCURRENCY, default 4), no database; each row shows its ratio to it.
 * Goal: ≥ 200 deliveries a minute (the burst) with p99 lag under 5 s (the steady stream), on every row.
 * Every run checks that the SMTP server received exactly one mail per delivery; a lost or duplicated mail is an
 * error and makes the exit code nonzero. A missed goal only prints FAIL (tests assert behaviour, benchmarks measure).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { SMTPServer } from 'smtp-server';
import { systemClock } from '../src/adapters/clock.ts';
import { createSmtpMailer } from '../src/adapters/mail.ts';
import { createDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { deliveryJobKey } from '../src/jobs/keys.ts';
import { requeueJob } from '../src/jobs/queue.ts';
import { deliveryEmail } from '../src/modules/deliveries/deliveries.content.ts';
import { changeDelivery } from '../src/modules/deliveries/deliveries.repository.ts';
import { createDeliveriesService } from '../src/modules/deliveries/deliveries.service.ts';
import { insertGift } from '../src/modules/gifts/gifts.repository.ts';
import {
  findSenderById,
  insertSenderIfNew,
  updateSender,
} from '../src/modules/sender-auth/sender-auth.repository.ts';
import { createScratchPostgres, PG_URL, postgresProblem } from '../test/helpers/postgres.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const WORKER = path.join(REPO, 'apps/server/src/worker.ts');
const SESSION_SECRET = 'bench-jobs-session-secret-0123456789abcdef';
const PUBLIC_ORIGIN = 'http://127.0.0.1:3000';
const MAIL_FROM = 'GiftLens <no-reply@giftlens.bench>';

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}
const N = argValue('--n', 600);
/** Jobs in flight per worker process (JOB_CONCURRENCY), and the baseline's parallel sends. */
const CONCURRENCY = argValue('--concurrency', 4);
/** The steady stream: deliveries due one after another at this rate (a minute's worth), for this long. */
const STEADY_RATE = argValue('--rate', 600);
const STEADY_SECONDS = argValue('--steady-s', 30);
const STEADY_INTERVAL_MS = 60_000 / STEADY_RATE;
const STEADY_N = Math.round((STEADY_RATE * STEADY_SECONDS) / 60);
const WORKER_COUNTS = [1, 2] as const;
/** The first instant of each phase is this long after its deliveries are moved to it. */
const LEAD_MS = 3000;
/** The goal: at least this many deliveries a minute, with p99 lag under this. */
const GOAL_PER_MIN = 200;
const GOAL_P99_MS = 5000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Set by Ctrl-C or SIGTERM: the current run stops and cleans up (its workers, its database), and no other starts. */
let interrupted: NodeJS.Signals | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A terminal's Ctrl-C reaches this process twice (directly, and passed on by tsx): the repeat changes nothing.
    if (interrupted) return;
    interrupted = signal;
    console.error(`\n${signal}: stopping the workers and dropping the bench database`);
  });
}
function checkInterrupted(): void {
  if (interrupted) throw new Error(`interrupted (${interrupted})`);
}

// --- SMTP: accepts everything and counts messages per envelope recipient (each delivery has its own address).

interface CountingSmtp {
  url: string;
  /** Mails accepted since the last reset, by recipient. */
  counts: Map<string, number>;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

async function startCountingSmtp(): Promise<CountingSmtp> {
  const counts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo)
          counts.set(rcpt.address, (counts.get(rcpt.address) ?? 0) + 1);
        callback();
      });
    },
  });
  // A client connection's errors are emitted on the server (a worker stopped mid-conversation resets it): the
  // bench counts what arrived, so they are not thrown.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    counts,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => counts.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Exactly one mail to each expected address and none to any other; the problems otherwise. */
function mailProblems(smtp: CountingSmtp, expected: string[]): string[] {
  const want = new Set(expected);
  const missing = expected.filter((a) => !smtp.counts.has(a)).length;
  const duplicated = [...smtp.counts].filter(([a, c]) => want.has(a) && c > 1).length;
  const stray = [...smtp.counts.keys()].filter((a) => !want.has(a)).length;
  const problems: string[] = [];
  if (smtp.total() !== expected.length)
    problems.push(`${smtp.total()} mails received for ${expected.length} deliveries`);
  if (missing) problems.push(`${missing} deliveries got no mail`);
  if (duplicated) problems.push(`${duplicated} deliveries got more than one mail`);
  if (stray) problems.push(`${stray} mails to unexpected addresses`);
  return problems;
}

const addresses = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => `d${i}.${tag}@bench.example`);

// --- Baseline: the same mails straight through the SMTP adapter, CONCURRENCY at a time, no database.

async function directSmtp(smtp: CountingSmtp): Promise<{ perSec: number; ms: number }> {
  const mailer = createSmtpMailer(smtp.url, MAIL_FROM);
  const content = deliveryEmail({
    senderFirstName: 'Ada',
    recipientName: 'Maya',
    link: `${PUBLIC_ORIGIN}/sharelink/bench`,
  });
  const sendAll = async (to: string[]) => {
    let next = 0;
    const lane = async () => {
      while (next < to.length) await mailer.send({ to: to[next++]!, ...content });
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  };
  try {
    await sendAll(addresses('warmup', 20));
    smtp.reset();
    const to = addresses('direct', N);
    const started = performance.now();
    await sendAll(to);
    const ms = performance.now() - started;
    const problems = mailProblems(smtp, to);
    if (problems.length) throw new Error(`direct SMTP: ${problems.join('; ')}`);
    return { perSec: (N * 1000) / ms, ms };
  } finally {
    mailer.close();
  }
}

// --- Databases

type TargetName = 'sqlite' | 'postgres';

interface BenchDatabase {
  db: Db;
  dataDir: string;
  /** DATABASE_URL for the workers; empty: SQLite at DATA_DIR/giftlens.sqlite. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database: a new SQLite file, or a new uniquely named PostgreSQL database dropped afterwards. */
async function createBenchDatabase(target: TargetName): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-jobs-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (target === 'sqlite') {
    const db = await createDatabase({ kind: 'sqlite', file: path.join(dataDir, 'giftlens.sqlite') });
    await migrateToLatest(db);
    const drop = async () => {
      await db.destroy();
      removeDir();
    };
    return { db, dataDir, url: '', drop };
  }
  const { url, drop: dropDatabase } = await createScratchPostgres('giftlens_bench');
  const db = await createDatabase({ kind: 'postgres', url });
  const drop = async () => {
    await db.destroy();
    await dropDatabase();
    removeDir();
  };
  try {
    await migrateToLatest(db);
  } catch (err) {
    await drop();
    throw err;
  }
  return { db, dataDir, url, drop };
}

/** A paid gift of a new sender, and a deliveries service on the database (the server's own code). */
async function seedGift(db: Db) {
  const nowIso = systemClock.now().toISOString();
  const senderId = randomBytes(16).toString('hex');
  await insertSenderIfNew(db, { id: senderId, email: 'sender@bench.example', now: nowIso });
  await updateSender(db, senderId, { first_name: 'Ada' });
  const sender = await findSenderById(db, senderId);
  if (!sender) throw new Error('the sender was not inserted');
  const giftId = randomBytes(16).toString('hex');
  await insertGift(db, {
    id: giftId,
    sender_id: senderId,
    recipient_name: 'Maya',
    recipient_email: null,
    recipient_phone: null,
    occasion: 'birthday',
    plan_id: 'premium_us',
    status: 'active',
    message_type: 'text',
    message_path: null,
    message_mime: null,
    message_text: 'Happy birthday!',
    message_size: null,
    paid_at: nowIso,
    scans_used: 0,
    first_opened_at: null,
    created_at: nowIso,
    updated_at: nowIso,
  });
  return {
    sender,
    giftId,
    service: createDeliveriesService({ db, clock: systemClock, whatsappEnabled: false }),
  };
}

/**
 * One delivery per address through the service's schedule() (the delivery row and its `delivery:{id}` job in one
 * transaction, as create() does), an hour out so no worker takes them before moveDeliveries() sets their instants.
 */
async function scheduleDeliveries(
  gift: Awaited<ReturnType<typeof seedGift>>,
  to: string[],
): Promise<string[]> {
  const later = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const ids: string[] = [];
  for (const recipientContact of to) {
    checkInterrupted();
    const res = await gift.service.schedule(gift.sender, {
      giftId: gift.giftId,
      recipientContact,
      contactType: 'email',
      scheduledDatetime: later,
      timezone: 'UTC',
    });
    ids.push(res.id);
  }
  return ids;
}

/**
 * Delivery i becomes due at first + i × intervalMs: what the service's change() writes for a new instant (the row,
 * then requeueJob), for all of them in one transaction. Throws when the commit comes after the first instant.
 */
async function moveDeliveries(db: Db, ids: string[], first: Date, intervalMs: number): Promise<void> {
  const now = systemClock.now();
  await db.transaction().execute(async (trx) => {
    for (const [i, id] of ids.entries()) {
      const at = new Date(first.getTime() + i * intervalMs);
      if (
        !(await changeDelivery(trx, id, ['pending'], { scheduled_at: at.toISOString() }, now.toISOString()))
      )
        throw new Error(`delivery ${id} is no longer pending`);
      await requeueJob(trx, deliveryJobKey(id), at, now);
    }
  });
  if (Date.now() > first.getTime())
    throw new Error(`moving ${ids.length} deliveries took longer than the ${LEAD_MS} ms lead`);
}

interface Sent {
  scheduledAt: number;
  sentAt: number;
}

async function sentTimes(db: Db, ids: string[]): Promise<Sent[]> {
  const out: Sent[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('scheduled_messages')
      .select(['scheduled_at', 'sent_at'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows)
      out.push({ scheduledAt: Date.parse(r.scheduled_at), sentAt: Date.parse(r.sent_at ?? '') });
  }
  return out;
}

interface Lag {
  p50: number;
  p99: number;
  max: number;
}
function lagOf(sent: Sent[]): Lag {
  const lags = sent.map((s) => s.sentAt - s.scheduledAt);
  return { p50: quantile(lags, 0.5), p99: quantile(lags, 0.99), max: Math.max(...lags) };
}

// --- Worker processes

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** SIGTERM (the worker finishes the jobs in hand), then waits for it to exit. */
  stop(): Promise<void>;
}

function startWorker(index: number, database: BenchDatabase, smtpUrl: string): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    cwd: REPO,
    env: {
      ...process.env,
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      SMTP_URL: smtpUrl,
      SESSION_SECRET,
      PUBLIC_ORIGIN,
      MAIL_FROM,
      LOG_LEVEL: 'info',
      JOB_CONCURRENCY: String(CONCURRENCY),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    // pino writes JSON lines: the start line says it is up; warnings and errors are passed on.
    createInterface({ input: child.stdout }).on('line', (line) => {
      let entry: { level?: number; msg?: string } = {};
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        console.error(`[worker ${index}] ${line}`);
        return;
      }
      if (entry.msg === 'GiftLens worker started') resolve();
      else if ((entry.level ?? 0) >= 40) console.error(`[worker ${index}] ${line}`);
    });
    void exited.then((code) =>
      reject(new Error(`worker ${index} exited with code ${code} before it started`)),
    );
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { child, ready, exited, stop };
}

// --- One run

interface Row {
  target: TargetName;
  workers: number;
  /** The burst: N / (last sent_at − T0), and its lags. */
  perSec: number;
  burst: Lag;
  /** The steady stream: its lags. */
  steady: Lag;
  /** Jobs that needed more than one attempt. */
  retried: number;
  mailOk: boolean;
}

async function countSent(db: Db, giftId: string): Promise<{ sent: number; failed: number }> {
  const rows = await db
    .selectFrom('scheduled_messages')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('gift_id', '=', giftId)
    .groupBy('status')
    .execute();
  const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { sent: of('sent'), failed: of('failed') };
}

async function runOnce(target: TargetName, workerCount: number, smtp: CountingSmtp): Promise<Row> {
  const label = `${target} × ${workerCount} worker${workerCount > 1 ? 's' : ''}`;
  const database = await createBenchDatabase(target);
  const { db } = database;
  const workers: Worker[] = [];
  try {
    const tag = `${target}${workerCount}.${randomBytes(3).toString('hex')}`;
    const burstTo = addresses(`b.${tag}`, N);
    const steadyTo = addresses(`s.${tag}`, STEADY_N);
    const gift = await seedGift(db);
    const burstIds = await scheduleDeliveries(gift, burstTo);
    const steadyIds = await scheduleDeliveries(gift, steadyTo);
    smtp.reset();

    for (let i = 1; i <= workerCount; i++) workers.push(startWorker(i, database, smtp.url));
    await Promise.all(workers.map((w) => w.ready));
    checkInterrupted();

    const until = async (what: string, count: number, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        checkInterrupted();
        const { sent, failed } = await countSent(db, gift.giftId);
        if (failed) throw new Error(`${failed} deliveries failed`);
        if (sent >= count) return;
        if (Date.now() > deadline)
          throw new Error(`${what}: only ${sent} of ${count} deliveries sent in ${timeoutMs / 1000} s`);
        if (workers.some((w) => w.child.exitCode !== null || w.child.signalCode !== null))
          throw new Error('a worker exited while sending');
        await sleep(100);
      }
    };

    // The burst: every delivery due at T0.
    const t0 = new Date(Date.now() + LEAD_MS);
    await moveDeliveries(db, burstIds, t0, 0);
    await until('the burst', N, LEAD_MS + Math.max(120_000, N * 500));
    const burst = await sentTimes(db, burstIds);
    const last = Math.max(...burst.map((s) => s.sentAt));
    console.log(`  ${label}: burst of ${N} sent ${((last - t0.getTime()) / 1000).toFixed(1)} s after T0`);

    // The steady stream: one due every STEADY_INTERVAL_MS.
    const t1 = new Date(Date.now() + LEAD_MS);
    await moveDeliveries(db, steadyIds, t1, STEADY_INTERVAL_MS);
    await until('the steady stream', N + STEADY_N, LEAD_MS + STEADY_N * STEADY_INTERVAL_MS + 120_000);
    const steady = await sentTimes(db, steadyIds);
    await Promise.all(workers.map((w) => w.stop()));

    console.log(
      `  ${label}: steady stream of ${STEADY_N} sent; ${smtp.total()} mails received for ${N + STEADY_N} deliveries`,
    );
    const problems = mailProblems(smtp, [...burstTo, ...steadyTo]);
    if (problems.length) console.error(`ERROR ${label}: ${problems.join('; ')}`);
    const retried = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', 'delivery.send')
      .where('attempts', '>', 1)
      .executeTakeFirstOrThrow();
    return {
      target,
      workers: workerCount,
      perSec: (N * 1000) / (last - t0.getTime()),
      burst: lagOf(burst),
      steady: lagOf(steady),
      retried: Number(retried.n),
      mailOk: problems.length === 0,
    };
  } catch (err) {
    throw new Error(`${label}: ${errorText(err)}`, { cause: err });
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await database.drop();
  }
}

// --- Report

const ms = (x: number) => `${Math.round(x)} ms`;
const ratio = (a: number, b: number) => (b > 0 ? `(x${(a / b).toFixed(2)})` : '');
const meetsGoal = (r: Row) => r.mailOk && r.perSec * 60 >= GOAL_PER_MIN && r.steady.p99 < GOAL_P99_MS;

async function main(): Promise<number> {
  const load0 = loadavg()[0]!;
  const smtp = await startCountingSmtp();
  const rows: Row[] = [];
  let failures = 0;
  let direct: number;
  try {
    console.log(
      `jobs bench: a burst of ${N} e-mail deliveries due at one instant T0, then a steady stream of ${STEADY_N} (one due every ` +
        `${+STEADY_INTERVAL_MS.toFixed(1)} ms, ${STEADY_RATE}/min); JOB_CONCURRENCY ${CONCURRENCY}; SMTP server ${smtp.url}`,
    );
    const baseline = await directSmtp(smtp);
    direct = baseline.perSec;
    console.log(`  direct SMTP: ${N} mails in ${(baseline.ms / 1000).toFixed(1)} s`);

    const pgProblem = await postgresProblem();
    const targets: TargetName[] = ['sqlite'];
    if (pgProblem) console.log(`PostgreSQL not reachable at ${PG_URL} (${pgProblem}): skipping it.`);
    else targets.push('postgres');

    for (const target of targets) {
      for (const workers of WORKER_COUNTS) {
        if (interrupted) break;
        try {
          const row = await runOnce(target, workers, smtp);
          if (!row.mailOk) failures++;
          rows.push(row);
        } catch (err) {
          failures++;
          console.error(`ERROR ${errorText(err)}`);
        }
      }
    }
  } finally {
    await smtp.close();
  }
  const load1 = loadavg()[0]!;

  console.log(
    `\nload average ${load0.toFixed(1)} -> ${load1.toFixed(1)} on ${availableParallelism()} cores; lag = sent_at − scheduled_at`,
  );
  console.log(
    `deliveries/min and /s: the burst, N / (last sent_at − T0); (ratio) to direct SMTP: the same ${N} mails through nodemailer, ` +
      `${CONCURRENCY} at a time, no database: ${(direct * 60).toFixed(0)}/min, ${direct.toFixed(1)}/s`,
  );
  const lagCells = (l: Lag) => [ms(l.p50).padEnd(9), ms(l.p99).padEnd(9), ms(l.max).padEnd(9)];
  const steadyHead = `steady ${STEADY_RATE}/min:`;
  console.log(`${''.padEnd(66)}${`burst of ${N}:`.padEnd(30)}${steadyHead}`);
  console.log(
    [
      'target'.padEnd(10),
      'workers'.padEnd(8),
      'deliveries/min'.padEnd(15),
      'deliveries/s'.padEnd(13),
      'vs direct SMTP'.padEnd(15),
      ...['p50 lag', 'p99 lag', 'max lag', 'p50 lag', 'p99 lag', 'max lag'].map((h) => h.padEnd(9)),
      'goal',
    ].join(' '),
  );
  for (const r of rows) {
    console.log(
      [
        r.target.padEnd(10),
        String(r.workers).padEnd(8),
        (r.perSec * 60).toFixed(0).padEnd(15),
        r.perSec.toFixed(1).padEnd(13),
        ratio(r.perSec, direct).padEnd(15),
        ...lagCells(r.burst),
        ...lagCells(r.steady),
        (meetsGoal(r) ? 'PASS' : 'FAIL') +
          (r.retried ? `  ${r.retried} retried` : '') +
          (r.mailOk ? '' : '  MAILS LOST/DUPLICATED'),
      ].join(' '),
    );
  }
  const all = rows.length > 0 && failures === 0 && rows.every(meetsGoal);
  console.log(
    `\ngoal: ≥ ${GOAL_PER_MIN} deliveries a minute (burst) with p99 lag under ${GOAL_P99_MS / 1000} s (steady ${STEADY_RATE}/min) ` +
      `on every row: ${all ? 'PASS' : 'FAIL'}` +
      rows.map((r) => `; ${r.target} × ${r.workers} ${meetsGoal(r) ? 'PASS' : 'FAIL'}`).join(''),
  );
  if (interrupted) return 130;
  if (failures) console.error(`${failures} run(s) lost or duplicated mails, or did not finish.`);
  return failures ? 1 : 0;
}

process.exit(await main());
