/**
 * npm run bench:api [-- --duration S] [--connections N] [--levels 1,2,4,8,16] [--sqlite-only] [--server js|ts]
 *                     [--rounds R] [--routes plans,verify] [--skip-scans] [--log-level L] [--cpu-prof DIR]
 *
 * The real server (the process `npm start` runs: compiled JS by default, `--server ts` for tsx on the sources) on
 * 127.0.0.1, on SQLite and then on PostgreSQL (TEST_DATABASE_URL, or postgres://postgres@127.0.0.1:5432/test, in a
 * database of its own, dropped after; skipped when unreachable), loaded with autocannon from this process:
 *   - GET /api/plans and GET verify-gift/{id} (N connections, S seconds each), each beside a bare Fastify route
 *     (no plugins, no logging, in its own process) measured just before it, R rounds (default 3) of the pair:
 *     requests/s, p50/p99, CPU µs per request of each process, the ratio of requests/s (the median round's) and
 *     the ratio of CPU per request (bare's over ours: the share of bare Fastify's rate a core would give us).
 *     Goals: plans ≥ 0.70 and verify-gift ≥ 0.40 of bare Fastify on SQLite.
 *   - a genuine scan (process-scan/{giftId}, the gift's own photo compressed as the browser does, Lifetime plan)
 *     at 1, 2, 4, 8 and 16 concurrent: accepted scans/s, p50/p99 of the accepted scans, and how many were refused
 *     with 503 (admission control). A refused connection sends its next scan at once (a harsher client than the
 *     scanner page, which waits Retry-After). Goal: p99 of accepted scans < 500 ms at 16 concurrent.
 * Every request carries its own X-Forwarded-For (the server trusts one proxy in front, TRUST_PROXY=1), as many phones would: the
 * per-client rate limits stay in the path but do not refuse. The server logs at info (--log-level), as in
 * production, to /dev/null. It prints figures and the load average; it does not fail on a missed goal.
 * `--cpu-prof DIR`: the server runs with node's --cpu-prof and writes its profile into DIR when it stops;
 * `node apps/server/bench/profile-summary.mjs DIR/*.cpuprofile` prints where the time went.
 */
import autocannon, { type Result } from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { API } from '@giftlens/contract/routes';
import { freePort, startProcess } from '../../../scripts/lib/processes.mjs';
import { createScratchPostgres, PG_URL, postgresProblem } from '../test/helpers/postgres.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const DURATION = Number(option('--duration', '5'));
const CONNECTIONS = Number(option('--connections', '10'));
const LEVELS = option('--levels', '1,2,4,8,16').split(',').map(Number);
const SERVER = option('--server', 'js');
const CPU_PROF = option('--cpu-prof', '');
const ROUTES = option('--routes', 'plans,verify').split(',');
const SKIP_SCANS = args.includes('--skip-scans');
const LOG_LEVEL = option('--log-level', 'info');
const ROUNDS = Number(option('--rounds', '3'));
const PHOTOS = path.join(REPO, 'test-fixtures/gift-photos/covers');

// ---------- processes ----------

let clientCounter = 0;
/** A fresh client address per request: 10.x.y.z. */
const nextClient = () => {
  const n = ++clientCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

interface Proc {
  base: string;
  child: import('node:child_process').ChildProcess;
  stop(): Promise<void>;
}

async function startBenchProcess(argv: string[], env: Record<string, string>, probe: string, port: number): Promise<Proc> {
  const base = `http://127.0.0.1:${port}`;
  const started = await startProcess({
    args: argv,
    url: base + probe,
    cwd: REPO,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stderr: 'capture',
    headers: () => ({ 'x-forwarded-for': nextClient() }),
  });
  return { base, child: started.child, stop: () => started.stop() };
}

const startBare = async () => startBenchProcess([path.join(import.meta.dirname, 'bare-fastify.mjs')], {}, '/bare', await freePort());

function startServer(dataDir: string, databaseUrl: string | null, port: number) {
  const entry =
    SERVER === 'ts'
      ? ['--import', 'tsx', path.join(REPO, 'apps/server/src/main.ts')]
      : [path.join(REPO, 'apps/server/dist/main.js')];
  const profile = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF)] : [];
  return startBenchProcess(
    [...profile, ...entry],
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      TRUST_PROXY: '1',
      LOG_LEVEL: LOG_LEVEL,
      // the uploaded video's rendition job runs in-process; then the runner only idles
      RUN_JOBS: 'true',
      REDIS_URL: '',
      SMTP_URL: '',
    },
    API.plans,
    port,
  );
}

// ---------- seeding through the real API ----------

function multipart(fields: Record<string, string>, files: { name: string; filename: string; type: string; data: Buffer }[]) {
  const boundary = `----giftlensbench${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** A sender signs in (code from the outbox), submits a Lifetime gift with its photo, uploads a video and pays. */
async function seedGift(base: string, dataDir: string): Promise<string> {
  const client = nextClient();
  const call = async (
    method: string,
    url: string,
    init: { cookie?: string; json?: unknown; body?: Buffer; type?: string; client?: string } = {},
  ) => {
    const headers: Record<string, string> = { 'x-forwarded-for': init.client ?? client, origin: base };
    if (init.cookie) headers.cookie = init.cookie;
    let body: Buffer | string | undefined = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.type) headers['content-type'] = init.type;
    const res = await fetch(base + url, { method, headers, body });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return { res, data: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  await call('POST', API.sendEmail, { json: { email, type: 'sender' } });
  const outbox = path.join(dataDir, 'outbox');
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    for (const f of readdirSync(outbox, { withFileTypes: true }).filter((e) => e.isFile())) {
      code ??= /verification code is (\d{6})/.exec(readFileSync(path.join(outbox, f.name), 'utf8'))?.[1];
    }
    if (!code) await sleep(100);
  }
  if (!code) throw new Error('no verification code in the outbox');
  const verified = await call('POST', API.verifyEmail, { json: { email, code, type: 'sender' } });
  const cookie = (verified.res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const form = multipart(
    { recipientName: 'Maya', recipientEmail: 'maya@example.com', occasion: 'birthday', planId: 'lifetime_us' },
    [{ name: 'giftImage', filename: 'gift.jpg', type: 'image/jpeg', data: readFileSync(path.join(PHOTOS, 'reference/001.jpg')) }],
  );
  const giftId = String((await call('POST', API.submitGift, { cookie, body: form.body, type: form.contentType })).data.giftId);
  const video = readFileSync(path.join(REPO, 'apps/server/test/fixtures/tiny.mp4'));
  const target = (
    await call('POST', API.generateUploadUrl, {
      cookie,
      json: { giftId, fileType: 'video/mp4', fileName: 'message.mp4', messageType: 'video', fileSize: video.length },
    })
  ).data as { uploadUrl: string; publicUrl: string; filePath: string };
  await call('PUT', target.uploadUrl, { body: video, type: 'video/mp4' });
  await call('POST', API.confirmUpload, {
    cookie,
    json: { giftId, publicUrl: target.publicUrl, messageType: 'video', filePath: target.filePath },
  });
  const { orderId } = (await call('POST', API.createOrder, { cookie, json: { giftId } })).data as { orderId: string };
  const paid = (await call('POST', '/api/payment/test-checkout/pay', { cookie, json: { orderId } })).data as Record<string, string>;
  await call('POST', API.verifyPayment, {
    json: { orderId: paid.razorpay_order_id, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature },
  });
  // ready when the message's rendition (ffmpeg) is done; each poll from another client address, as verify-gift is
  // limited per client (30 a minute) and a loaded machine can take longer than 30 polls
  for (let i = 0; i < 600; i++) {
    const { data } = await call('GET', API.verifyGift(giftId), { client: nextClient() });
    if (!(data.giftDetails as { preparing: boolean }).preparing) return giftId;
    await sleep(100);
  }
  throw new Error('the gift message was still being prepared after 60 s');
}

// ---------- load ----------

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The process's CPU time (user + system) per answered request, µs; NaN when not measured. */
  cpuUs: number;
}

/** A process's user + system CPU time so far, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // after the command: state is field 3, utime 14 and stime 15 (1-based), in clock ticks of 10 ms
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** One load run against `url` on `proc`, with the process's CPU time per answered request. */
async function measured(proc: Proc, url: string): Promise<Figures> {
  const before = cpuMs(proc.child.pid);
  const result = await load(url, { connections: CONNECTIONS, duration: DURATION });
  const f = figures(result);
  return { ...f, cpuUs: ((cpuMs(proc.child.pid) - before) * 1000) / result.requests.total };
}

function load(
  url: string,
  opts: { connections: number; duration: number; method?: 'GET' | 'POST'; body?: Buffer; contentType?: string },
  onResponse?: (status: number, ms: number) => void,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = opts.contentType ? { 'content-type': opts.contentType } : {};
    const instance = autocannon(
      {
        url,
        connections: opts.connections,
        duration: opts.duration,
        method: opts.method ?? 'GET',
        ...(opts.body ? { body: opts.body } : {}),
        headers,
        requests: [
          {
            setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextClient() } }),
          },
        ],
      },
      (err: unknown, result) => (err ? reject(err instanceof Error ? err : new Error(`autocannon: ${JSON.stringify(err)}`)) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

const figures = (r: Result): Figures => ({
  rps: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts + r.non2xx,
  cpuUs: NaN,
});

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const load1 = () => loadavg()[0]!.toFixed(2);

async function benchTarget(name: string, databaseUrl: string | null) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-api-'));
  const port = await freePort();
  const bare = await startBare();
  const app = await startServer(dataDir, databaseUrl, port);
  try {
    const giftId = await seedGift(app.base, dataDir);
    console.log(`\n## ${name} (server: ${SERVER === 'ts' ? 'tsx on the sources' : 'compiled JS'}; load average ${load1()})`);
    console.log(
      `${pad('route', 26)}${pad('req/s', 8)}${pad('p50 ms', 7)}${pad('p99 ms', 7)}${pad('non-2xx', 8)}${pad('cpu µs/req', 11)}${pad('bare r/s', 9)}${pad('bare µs/r', 10)}${pad('ratio', 7)}cpu ratio`,
    );
    const routes = (
      [
        ['plans', 'GET /api/plans', API.plans, 0.7],
        ['verify', 'GET verify-gift/{id}', API.verifyGift(giftId), 0.4],
      ] as const
    )
      .filter(([key]) => ROUTES.includes(key))
      .map(([, label, url, goal]) => [label, url, goal] as const);
    // warm-up: JIT and caches, not measured
    await load(bare.base + '/bare', { connections: CONNECTIONS, duration: 1 });
    for (const [, url] of routes) await load(app.base + url, { connections: CONNECTIONS, duration: 1 });
    for (const [label, url, goal] of routes) {
      // Rounds of (bare, ours) back to back: a burst of load from elsewhere hits both sides of a round, and the
      // median round's ratio is the figure. CPU µs per request (the process's user + system time over its
      // answered requests) does not depend on how much CPU the machine had to spare.
      const rounds: { a: Figures; b: Figures; ratio: number }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const b = await measured(bare, bare.base + '/bare');
        const a = await measured(app, app.base + url);
        rounds.push({ a, b, ratio: a.rps / b.rps });
      }
      const { a, b, ratio } = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor((ROUNDS - 1) / 2)]!;
      const verdict = goal === null ? '' : ratio >= goal ? `  (goal ≥ ${goal}: ok)` : `  (goal ≥ ${goal}: MISSED)`;
      console.log(
        `${pad(label, 26)}${pad(num(a.rps), 8)}${pad(num(a.p50), 7)}${pad(num(a.p99), 7)}${pad(String(a.errors), 8)}${pad(num(a.cpuUs, 1), 11)}${pad(num(b.rps), 9)}${pad(num(b.cpuUs, 1), 10)}${pad(ratio.toFixed(2), 7)}${(b.cpuUs / a.cpuUs).toFixed(2)}${name === 'SQLite' ? verdict : ''}`,
      );
      if (ROUNDS > 1) console.log(`${pad('', 26)}ratio per round, in the order run: ${rounds.map((r) => r.ratio.toFixed(2)).join(' ')}`);
    }

    if (SKIP_SCANS) return;
    const scan = await sharp(readFileSync(path.join(PHOTOS, 'photos/001-canon.jpg')))
      .rotate()
      .resize(600, 600, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 50 })
      .toBuffer();
    const form = multipart({ type: 'direct' }, [{ name: 'scan', filename: 'scan.jpg', type: 'image/jpeg', data: scan }]);
    const scanUrl = app.base + API.processScanDirect(giftId);
    const probe = await fetch(scanUrl, { method: 'POST', body: form.body, headers: { 'content-type': form.contentType, 'x-forwarded-for': nextClient() } });
    if (probe.status !== 200) throw new Error(`a genuine scan answered ${probe.status}: ${await probe.text()}`);
    await load(scanUrl, { connections: 2, duration: 2, method: 'POST', body: form.body, contentType: form.contentType });
    console.log(
      `\ngenuine scans, process-scan/{giftId} (${availableParallelism()} cores; ${DURATION} s per level; p50/p99 of accepted scans)`,
    );
    console.log(`${pad('concurrent', 12)}${pad('scans/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('accepted', 10)}${pad('503', 8)}${pad('other', 7)}${pad('bare req/s', 12)}ratio  load`);
    for (const level of LEVELS) {
      const b = figures(await load(bare.base + '/bare', { connections: level, duration: Math.min(DURATION, 3) }));
      const accepted: number[] = [];
      let refused = 0;
      let other = 0;
      await load(scanUrl, { connections: level, duration: DURATION, method: 'POST', body: form.body, contentType: form.contentType }, (status, ms) => {
        if (status === 200) accepted.push(ms);
        else if (status === 503) refused++;
        else if (++other === 1) console.log(`  first other status: ${status}`);
      });
      const rate = accepted.length / DURATION;
      const p99 = quantile(accepted, 0.99);
      const verdict = level === 16 ? (p99 < 500 ? '  (goal p99 < 500: ok)' : '  (goal p99 < 500: MISSED)') : '';
      console.log(
        `${pad(String(level), 12)}${pad(num(rate, 1), 9)}${pad(num(quantile(accepted, 0.5)), 8)}${pad(num(p99), 8)}${pad(String(accepted.length), 10)}${pad(String(refused), 8)}${pad(String(other), 7)}${pad(num(b.rps), 12)}${(rate / b.rps).toFixed(4)} ${load1()}${verdict}`,
      );
    }
  } finally {
    await app.stop();
    await bare.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function withPostgresDatabase(run: (url: string) => Promise<void>) {
  const problem = await postgresProblem();
  if (problem) {
    console.log(`\n## PostgreSQL: skipped, ${PG_URL} unreachable (${problem})`);
    return;
  }
  const scratch = await createScratchPostgres('giftlens_bench');
  try {
    await run(scratch.url);
  } finally {
    await scratch.drop();
  }
}

console.log(`bench:api — ${CONNECTIONS} connections, ${DURATION} s per run, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await benchTarget('SQLite', null);
if (!args.includes('--sqlite-only')) await withPostgresDatabase((url) => benchTarget('PostgreSQL', url));
