/**
 * npm run bench:jobs [-- --n N] [--concurrency C]
 * The durable job runner's delivery throughput and lag: N e-mail deliveries all due at one instant T0 (a burst),
 * sent by 1 and then 2 real worker processes (apps/server/src/worker.ts) to a real SMTP server on 127.0.0.1, on
 * SQLite and on PostgreSQL (TEST_DATABASE_URL, or postgres://postgres@127.0.0.1:5432/test; skipped when
 * unreachable). Throughput: N / (last sent_at − T0); lag: sent_at − scheduled_at per delivery.
 * The baseline is the same N mails sent straight through nodemailer, C at a time, no database; each row shows its
 * ratio to it. Every run checks that the SMTP server received exactly one mail per delivery; a lost or duplicated
 * mail is an error and makes the exit code nonzero. Missing the goal only prints FAIL (benchmarks measure).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { systemClock } from '../src/adapters/clock.ts';
import { createSmtpMailer } from '../src/adapters/mail.ts';
import { createDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { deliveryEmail } from '../src/modules/deliveries/deliveries.content.ts';
import { createDeliveriesService, deliveryJobKey } from '../src/modules/deliveries/deliveries.service.ts';
import { insertGift } from '../src/modules/gifts/gifts.repository.ts';
import { findSenderById, insertSenderIfNew, updateSender } from '../src/modules/sender-auth/sender-auth.repository.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const WORKER = path.join(REPO, 'apps/server/src/worker.ts');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
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
const WORKER_COUNTS = [1, 2] as const;
/** T0 is this long after the workers are up and the deliveries moved to it. */
const LEAD_MS = 2000;
/** The goal (issue: durable jobs): at least this many deliveries a minute with p99 lag under this. */
const GOAL_PER_MIN = 200;
const GOAL_P99_MS = 5000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

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
        for (const rcpt of session.envelope.rcptTo) counts.set(rcpt.address, (counts.get(rcpt.address) ?? 0) + 1);
        callback();
      });
    },
  });
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
  if (smtp.total() !== expected.length) problems.push(`${smtp.total()} mails received for ${expected.length} deliveries`);
  if (missing) problems.push(`${missing} deliveries got no mail`);
  if (duplicated) problems.push(`${duplicated} deliveries got more than one mail`);
  if (stray) problems.push(`${stray} mails to unexpected addresses`);
  return problems;
}

const addresses = (tag: string) => Array.from({ length: N }, (_, i) => `d${i}.${tag}@bench.example`);

// --- Baseline: the same mails straight through the SMTP adapter, CONCURRENCY at a time, no database.

async function directSmtp(smtp: CountingSmtp): Promise<{ perSec: number; ms: number }> {
  const mailer = createSmtpMailer(smtp.url, MAIL_FROM);
  const content = deliveryEmail({ senderFirstName: 'Ada', recipientName: 'Maya', link: `${PUBLIC_ORIGIN}/sharelink/bench` });
  const sendAll = async (to: string[]) => {
    let next = 0;
    const lane = async () => {
      while (next < to.length) await mailer.send({ to: to[next++]!, ...content });
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  };
  try {
    await sendAll(addresses('warmup').slice(0, 20));
    smtp.reset();
    const to = addresses('direct');
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

async function postgresProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return errorText(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database: a new SQLite file, or a new uniquely named PostgreSQL database dropped afterwards. */
async function createBenchDatabase(target: TargetName): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-jobs-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (target === 'sqlite') {
    const db = createDatabase({ kind: 'sqlite', file: path.join(dataDir, 'giftlens.sqlite') });
    await migrateToLatest(db);
    const drop = async () => {
      await db.destroy();
      removeDir();
    };
    return { db, dataDir, url: '', drop };
  }
  const name = `giftlens_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = createDatabase({ kind: 'postgres', url });
  const drop = async () => {
    await db.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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

/**
 * A sender, a paid gift and N e-mail deliveries with their jobs, through the service's own schedule() (the
 * delivery row and its `delivery:{id}` job in one transaction). They are scheduled an hour out; moveTo() brings
 * them all to T0 once the workers are up.
 */
async function seed(db: Db, to: string[]): Promise<{ giftId: string; moveTo(t0: Date): Promise<void> }> {
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

  const deliveries = createDeliveriesService({ db, clock: systemClock, whatsappEnabled: false });
  const later = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const ids: string[] = [];
  for (const recipientContact of to) {
    const res = await deliveries.schedule(sender, { giftId, recipientContact, contactType: 'email', scheduledDatetime: later, timezone: 'UTC' });
    ids.push(res.id);
  }
  const keys = ids.map(deliveryJobKey);

  return {
    giftId,
    // What change() does for one delivery (the row's instant, then rescheduleJob), for all of them in one transaction.
    async moveTo(t0) {
      const at = t0.toISOString();
      const now = systemClock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('scheduled_messages').set({ scheduled_at: at, updated_at: now }).where('gift_id', '=', giftId).execute();
        for (let i = 0; i < keys.length; i += 500) {
          await trx
            .updateTable('jobs')
            .set({ run_at: at, updated_at: now })
            .where('key', 'in', keys.slice(i, i + 500))
            .where('status', '=', 'queued')
            .execute();
        }
      });
    },
  };
}

// --- Worker processes

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
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
    void exited.then((code) => reject(new Error(`worker ${index} exited with code ${code} before it started`)));
  });
  return { child, ready, exited };
}

async function stopWorker(worker: Worker): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  await worker.exited;
}

// --- One run

interface Row {
  target: TargetName;
  workers: number;
  perSec: number;
  p50: number;
  p99: number;
  max: number;
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
  const workers: Worker[] = [];
  try {
    const to = addresses(`${target}${workerCount}.${randomBytes(3).toString('hex')}`);
    const seeded = await seed(database.db, to);
    smtp.reset();

    for (let i = 1; i <= workerCount; i++) workers.push(startWorker(i, database, smtp.url));
    await Promise.all(workers.map((w) => w.ready));
    const t0 = new Date(Date.now() + LEAD_MS);
    await seeded.moveTo(t0);

    const deadline = t0.getTime() + Math.max(120_000, N * 500);
    for (;;) {
      const { sent, failed } = await countSent(database.db, seeded.giftId);
      if (sent + failed >= N) {
        if (failed) throw new Error(`${label}: ${failed} deliveries failed`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`${label}: only ${sent} of ${N} deliveries sent by the deadline`);
      if (workers.some((w) => w.child.exitCode !== null || w.child.signalCode !== null)) throw new Error(`${label}: a worker exited while sending`);
      await sleep(100);
    }
    await Promise.all(workers.map(stopWorker));

    const problems = mailProblems(smtp, to);
    if (problems.length) console.error(`ERROR ${label}: ${problems.join('; ')}`);

    const rows = await database.db
      .selectFrom('scheduled_messages')
      .select(['scheduled_at', 'sent_at'])
      .where('gift_id', '=', seeded.giftId)
      .execute();
    const sentAt = rows.map((r) => Date.parse(r.sent_at ?? ''));
    const lags = rows.map((r, i) => sentAt[i]! - Date.parse(r.scheduled_at));
    const last = Math.max(...sentAt);
    const retried = await database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', 'delivery.send')
      .where('attempts', '>', 1)
      .executeTakeFirstOrThrow();
    const row: Row = {
      target,
      workers: workerCount,
      perSec: (N * 1000) / (last - t0.getTime()),
      p50: quantile(lags, 0.5),
      p99: quantile(lags, 0.99),
      max: Math.max(...lags),
      retried: Number(retried.n),
      mailOk: problems.length === 0,
    };
    console.log(`  ${label}: ${N} sent in ${((last - t0.getTime()) / 1000).toFixed(1)} s after T0, ${smtp.total()} mails received`);
    return row;
  } finally {
    await Promise.all(workers.map(stopWorker));
    await database.drop();
  }
}

// --- Report

const ms = (x: number) => `${Math.round(x)} ms`;
const ratio = (a: number, b: number) => (b > 0 ? `(x${(a / b).toFixed(2)})` : '');
const meetsGoal = (r: Row) => r.perSec * 60 >= GOAL_PER_MIN && r.p99 < GOAL_P99_MS;

async function main(): Promise<number> {
  const load0 = loadavg()[0]!;
  const smtp = await startCountingSmtp();
  const rows: Row[] = [];
  let failures = 0;
  let baseline: { perSec: number; ms: number };
  try {
    console.log(`jobs bench: ${N} e-mail deliveries due at one instant (T0), JOB_CONCURRENCY ${CONCURRENCY}, SMTP ${smtp.url}`);
    baseline = await directSmtp(smtp);
    console.log(`  direct SMTP: ${N} mails in ${(baseline.ms / 1000).toFixed(1)} s`);

    const pgProblem = await postgresProblem();
    const targets: TargetName[] = ['sqlite'];
    if (pgProblem) console.log(`PostgreSQL not reachable at ${PG_URL} (${pgProblem}): skipping it.`);
    else targets.push('postgres');

    for (const target of targets) {
      for (const workers of WORKER_COUNTS) {
        try {
          const row = await runOnce(target, workers, smtp);
          if (!row.mailOk) failures++;
          rows.push(row);
        } catch (err) {
          failures++;
          console.error(`ERROR ${target} × ${workers}: ${errorText(err)}`);
        }
      }
    }
  } finally {
    await smtp.close();
  }
  const load1 = loadavg()[0]!;

  const direct = baseline.perSec;
  console.log(`\nload average ${load0.toFixed(1)} -> ${load1.toFixed(1)} on ${availableParallelism()} cores; lag = sent_at − scheduled_at`);
  console.log(
    `figures: the runner, then (ratio to direct SMTP: the same ${N} mails through nodemailer, ${CONCURRENCY} at a time, no database: ` +
      `${(direct * 60).toFixed(0)}/min, ${direct.toFixed(1)}/s)`,
  );
  const header = ['target'.padEnd(10), 'workers'.padEnd(8), 'deliveries/min'.padEnd(16), 'deliveries/s'.padEnd(14), 'p50 lag'.padEnd(9), 'p99 lag'.padEnd(9), 'max lag'.padEnd(9), 'vs direct SMTP'];
  console.log(header.join(' '));
  for (const r of rows) {
    console.log(
      [
        r.target.padEnd(10),
        String(r.workers).padEnd(8),
        (r.perSec * 60).toFixed(0).padEnd(16),
        r.perSec.toFixed(1).padEnd(14),
        ms(r.p50).padEnd(9),
        ms(r.p99).padEnd(9),
        ms(r.max).padEnd(9),
        ratio(r.perSec, direct) + (r.retried ? `  ${r.retried} retried` : '') + (r.mailOk ? '' : '  MAILS LOST/DUPLICATED'),
      ].join(' '),
    );
  }
  console.log(`\ngoal: ≥ ${GOAL_PER_MIN} deliveries a minute with p99 lag under ${GOAL_P99_MS / 1000} s on every row`);
  for (const r of rows) {
    console.log(
      `  ${`${r.target} × ${r.workers}`.padEnd(14)} ${meetsGoal(r) ? 'PASS' : 'FAIL'}  ` +
        `(${(r.perSec * 60).toFixed(0)}/min, p99 ${ms(r.p99)})`,
    );
  }
  const all = rows.length > 0 && rows.every(meetsGoal) && failures === 0;
  console.log(all ? 'goal met on every row.' : 'goal NOT met on every row.');
  if (failures) console.error(`${failures} run(s) lost or duplicated mails, or did not finish.`);
  return failures ? 1 : 0;
}

process.exit(await main());
