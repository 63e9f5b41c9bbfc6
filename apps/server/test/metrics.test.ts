import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { API } from '@giftlens/contract/routes';
import { afterEach, expect } from 'vitest';
import { createOutboxMailer, type Mailer } from '../src/adapters/mail.ts';
import { paidGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, SESSION_SECRET, signIn, type Harness } from './helpers/harness.ts';

const TOKEN = 'metrics-token-0123456789abcdef-0123456789';
const REFUSED = 'refused-by-relay';
const REPO = path.resolve(import.meta.dirname, '../../..');
const WORKER = path.join(REPO, 'apps/server/src/worker.ts');

/** A sample's value in the text exposition (undefined: no such series), labels matched exactly as written. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) got[l[1]!] = l[2]!;
    if (Object.keys(got).length === wanted.length && wanted.every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function scrape(h: Harness): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

async function sendNow(h: Harness, cookie: string, giftId: string, to: string) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/scheduled-messages/send-now',
    headers: { cookie },
    payload: { giftId, recipientContact: to, contactType: 'email' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The outbox, except mail to an address containing REFUSED, which the "relay" refuses. */
const refusingMailer = ({ outboxDir }: { outboxDir: string }): Mailer => {
  const outbox = createOutboxMailer(outboxDir, 'GiftLens <no-reply@giftlens.test>', () => undefined);
  return {
    async send(message) {
      if (message.to.includes(REFUSED)) throw new Error('550 mailbox unavailable');
      await outbox.send(message);
    },
    check: () => outbox.check(),
    close: () => outbox.close(),
  };
};

describeEachDatabase('metrics: without METRICS_TOKEN', (get) => {
  it('/metrics does not exist (404), with or without a bearer token', async () => {
    const h = get();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await h.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
    expect(h.metrics).toBeNull();
  });
});

describeEachDatabase(
  'metrics: with METRICS_TOKEN',
  (get) => {
    it('refuses a missing, wrong or other-scheme token with 401, answers the right one uncached in the text format', async () => {
      const h = get();
      for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}x`, `Bearer short`, `Basic ${TOKEN}`, TOKEN]) {
        const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(json(res)).toMatchObject({ success: false, code: 'metrics_unauthorized' });
        expect(res.body).not.toContain('http_request_duration_seconds');
      }
      const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
      expect(res.body).toContain('# TYPE giftlens_jobs gauge');
      expect(res.body).toContain('process_cpu_user_seconds_total');
      // 20 scrapes in a row (a scrape every 15 s for 5 minutes) are never rate-limited.
      for (let i = 0; i < 20; i++) await scrape(h);
    });

    it('is not in the API reference', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(json<{ paths: Record<string, unknown> }>(res).paths)).not.toContain('/metrics');
    });

    it('counts requests by route pattern and status, never by URL', async () => {
      const h = get();
      const route = '/api/verification-recipient/verify-gift/:giftId';
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const ask = (id: string) => h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${id}` });
      const { statusCode } = await ask(randomUUID());
      const labels = { method: 'GET', route, status_code: String(statusCode) };
      const before = sample(await scrape(h), 'http_request_duration_seconds_count', labels) ?? 0;
      for (const id of ids) expect((await ask(id)).statusCode).toBe(statusCode);
      await h.app.inject({ method: 'GET', url: `/api/no-such-call/${ids[0]}` });
      const text = await scrape(h);
      expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(before + 3);
      expect(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 3);
      expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
      for (const id of ids) expect(text).not.toContain(id);
    });

    it('shows queued jobs and their lag, then their runs, and counts a mail the relay refuses as failed', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      await h.jobs.runDue();
      const queued = { kind: 'delivery.send', status: 'queued' };
      const start = await scrape(h);
      expect(sample(start, 'giftlens_jobs', queued) ?? 0).toBe(0);
      const done = (text: string) => sample(text, 'giftlens_job_duration_seconds_count', { kind: 'delivery.send', outcome: 'done' }) ?? 0;
      const retried = (text: string) => sample(text, 'giftlens_job_duration_seconds_count', { kind: 'delivery.send', outcome: 'retry' }) ?? 0;
      const failed = (text: string) => sample(text, 'giftlens_mails_total', { result: 'failed' }) ?? 0;
      const sent = (text: string) => sample(text, 'giftlens_mails_total', { result: 'sent' }) ?? 0;

      await sendNow(h, cookie, giftId, 'friend-one@example.com');
      await sendNow(h, cookie, giftId, 'friend-two@example.com');
      await sendNow(h, cookie, giftId, `${REFUSED}@example.com`);
      h.clock.advance(90_000);
      const waiting = await scrape(h);
      expect(sample(waiting, 'giftlens_jobs', queued)).toBe(3);
      expect(sample(waiting, 'giftlens_jobs_oldest_due_lag_seconds')).toBeGreaterThanOrEqual(90);

      await h.jobs.runDue();
      const after = await scrape(h);
      // Two sent, one refused: its job waits for a retry (queued again, later), the lag is gone.
      expect(sample(after, 'giftlens_jobs', queued)).toBe(1);
      expect(sample(after, 'giftlens_jobs_oldest_due_lag_seconds')).toBe(0);
      expect(done(after) - done(start)).toBe(2);
      expect(retried(after) - retried(start)).toBe(1);
      expect(failed(after) - failed(start)).toBe(1);
      expect(sent(after) - sent(start)).toBeGreaterThanOrEqual(2);
      expect(sample(after, 'giftlens_job_wait_seconds_count', { kind: 'delivery.send' })).toBeGreaterThanOrEqual(2);
    });

    it('counts live frames refused by reason: the per-second rate', async () => {
      const h = get();
      const refused = (text: string, reason: string) => sample(text, 'giftlens_live_frames_refused_total', { reason });
      const before = await scrape(h);
      // Every reason is there from the start, at 0 or more.
      for (const reason of ['rate', 'budget', 'busy']) expect(refused(before, reason)).toBeGreaterThanOrEqual(0);
      h.clock.advance(1000);
      // The rate is checked before the body is read: the first two frames are answered (400: no photo), the third refused.
      const url = API.liveFrameDirect('0'.repeat(32));
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await h.app.inject({ method: 'POST', url, remoteAddress: '10.77.0.1' })).statusCode);
      expect(answers).toEqual([400, 400, 429]);
      const after = await scrape(h);
      expect(refused(after, 'rate')! - refused(before, 'rate')!).toBe(1);
      expect(refused(after, 'budget')).toBe(refused(before, 'budget'));
      expect(refused(after, 'busy')).toBe(refused(before, 'busy'));
    });
  },
  { metricsToken: TOKEN, mailer: refusingMailer, liveScanLimit: { perClientPerSecond: 2, perTarget: 10_000, perClient: 10_000, windowMs: 60_000 } },
);

// `npm run worker` with METRICS_PORT: its own listener, the same token, its jobs and mails.
const running = new Set<ChildProcess>();
afterEach(async () => {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          running.delete(child);
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describeEachDatabase(
  'metrics: a worker on METRICS_PORT',
  (get) => {
    it('answers its own /metrics (401 without the token) and counts the jobs and mails it ran', async () => {
      const h = get();
      h.clock.set(new Date());
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      await h.jobs.runDue();
      await sendNow(h, cookie, giftId, 'worker-metrics@example.com');
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
        cwd: REPO,
        env: {
          ...process.env,
          DATA_DIR: h.dataDir,
          DATABASE_URL: h.databaseUrl ?? '',
          SMTP_URL: '',
          SESSION_SECRET,
          PUBLIC_ORIGIN,
          LOG_LEVEL: 'error',
          METRICS_TOKEN: TOKEN,
          METRICS_PORT: String(port),
          HOST: '',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      running.add(child);
      const url = `http://127.0.0.1:${port}/metrics`;
      const deadline = Date.now() + 60_000;
      let text = '';
      for (;;) {
        const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } }).catch(() => null);
        if (res?.status === 200) {
          expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
          text = await res.text();
          if ((sample(text, 'giftlens_job_duration_seconds_count', { kind: 'delivery.send', outcome: 'done' }) ?? 0) >= 1) break;
        }
        if (Date.now() > deadline) throw new Error(`the worker's metrics never showed the delivery:\n${text}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(sample(text, 'giftlens_mails_total', { result: 'sent' })).toBeGreaterThanOrEqual(1);
      expect(text).toContain('# TYPE giftlens_jobs gauge');
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    }, 90_000);
  },
);
