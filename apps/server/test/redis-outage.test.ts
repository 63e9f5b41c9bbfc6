import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../scripts/lib/processes.mjs';
import { createRateLimitStore, type RateLimitStore } from '../src/adapters/rate-limit-store.ts';
import { createSlidingWindow } from '../src/adapters/sliding-window.ts';
import { DATABASE_TARGETS } from './helpers/databases.ts';
import { createHarness, json, uniqueEmail, type Harness } from './helpers/harness.ts';
import { REDIS_URL, redisProblem } from './helpers/redis.ts';

/**
 * Shared rate limits in Redis (REDIS_URL) do not switch off when Redis fails: a Redis that is down, or that accepts
 * commands and never answers, neither refuses nor hangs sign-ins and scans, and every limit is still enforced, with
 * the same numbers, in each process's memory, until Redis answers again and the limits are shared again.
 * /api/health (503) and /api/health/ready (still 200) say `redis: 'degraded'` meanwhile.
 */

const target = DATABASE_TARGETS[0]!;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
}, 60_000);

/** The sign-in calls' limit on these nodes: a client's 4th code request within a minute is refused. */
const AUTH_LIMIT = { max: 3, timeWindow: 60_000 };

async function nodeOn(redisUrl: string) {
  const warnings: string[] = [];
  const store = await createRateLimitStore(redisUrl, (line) => warnings.push(line), { watchEveryMs: 200 });
  if (store.kind === 'redis') closers.push(() => Promise.resolve(store.client.disconnect()));
  const node = await createHarness(target, { rateLimitStore: store, authRateLimit: AUTH_LIMIT });
  closers.push(() => node.close());
  return { h: node.harness, store: store as Extract<RateLimitStore, { kind: 'redis' }>, warnings };
}

/** A client address no earlier run used (counts stay in Redis for their window). */
const freshIp = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/** The calls a Redis outage must not break: each answers (no 5xx) within `withinMs`. */
async function callsStillAnswer(h: Harness, withinMs: number) {
  const remoteAddress = freshIp();
  const calls = {
    sendCode: () =>
      h.app.inject({ method: 'POST', url: '/api/gift-sender/send-email', remoteAddress, payload: { email: uniqueEmail('outage'), type: 'sender' } }),
    verifyGift: () => h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${'0'.repeat(32)}`, remoteAddress }),
    unknownRoute: () => h.app.inject({ method: 'GET', url: '/api/nothing-here', remoteAddress }),
  };
  const statuses: Record<string, number> = {};
  for (const [name, call] of Object.entries(calls)) {
    const started = Date.now();
    const res = await call();
    expect(Date.now() - started, name).toBeLessThan(withinMs);
    statuses[name] = res.statusCode;
  }
  return statuses;
}

/** One client asking `n` times for a sign-in code (a new address each time): the statuses. */
async function codeRequests(h: Harness, remoteAddress: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/send-email',
      remoteAddress,
      payload: { email: uniqueEmail('limited'), type: 'sender' },
    });
    if (res.statusCode === 429) {
      expect(json(res)).toMatchObject({ success: false, code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    statuses.push(res.statusCode);
  }
  return statuses;
}

const health = async (h: Harness, url = '/api/health') => {
  const res = await h.app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: json<Record<string, unknown>>(res) };
};
const readiness = (h: Harness) => health(h, '/api/health/ready');

describe.skipIf(target.unavailable !== null)('a Redis that is down', () => {
  it('every limit holds per process: the 4th code request of one client is refused; health says degraded, readiness stays 200', async () => {
    const { h, store, warnings } = await nodeOn(`redis://127.0.0.1:${await freePort()}`);
    expect(warnings.join('\n')).toMatch(/^redis: .*rate limits are counted in this process only until it answers again/);
    expect(store.mode()).toBe('local');
    expect(await callsStillAnswer(h, 3000)).toEqual({ sendCode: 200, verifyGift: 404, unknownRoute: 404 });

    expect(await codeRequests(h, freshIp(), 4)).toEqual([200, 200, 200, 429]);

    const report = await health(h);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ success: false, database: 'ok', storage: 'ok', mail: 'ok', redis: 'degraded' });
    const ready = await readiness(h);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, database: 'ok', storage: 'ok', redis: 'degraded' });
  });

  it('the live-frame windows count in memory meanwhile, with the same limits', async () => {
    const warnings: string[] = [];
    const store = await createRateLimitStore(`redis://127.0.0.1:${await freePort()}`, (line) => warnings.push(line));
    if (store.kind === 'redis') closers.push(() => Promise.resolve(store.client.disconnect()));
    const window = createSlidingWindow(store, `gl:test:${randomBytes(6).toString('hex')}:`);
    const limit = { key: 'client', max: 2, windowMs: 60_000 };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await window.take([limit], 1000 + i)).admitted);
    expect(answers).toEqual([true, true, false]);
  });
});

/**
 * A TCP proxy in front of Redis that can be frozen (it keeps every connection open and holds what either side sends
 * until thawed, as a stalled Redis would) or taken down (every connection closed, nothing listening) and up again.
 */
async function proxiedRedis(upstream: URL) {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  /** What the app wrote towards Redis, chunk by chunk (RESP text), frozen or not. */
  const written: string[] = [];
  const server: Server = createServer((client) => {
    const redis = connect(Number(upstream.port || 6379), upstream.hostname);
    for (const s of [client, redis]) sockets.add(s);
    client.on('data', (d: Buffer) => written.push(d.toString('latin1')));
    const forward = (to: Socket) => (d: Buffer) => (frozen ? held.push(() => to.write(d)) : to.write(d));
    client.on('data', forward(redis));
    redis.on('data', forward(client));
    const end = () => {
      client.destroy();
      redis.destroy();
    };
    for (const s of [client, redis]) s.on('error', end).on('close', () => (sockets.delete(s), end()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const down = async () => {
    server.close();
    for (const s of sockets) s.destroy();
    if (server.listening) await once(server, 'close');
  };
  closers.push(down);
  return {
    url: `redis://127.0.0.1:${port}`,
    /** The app's writes towards Redis from the `from`th on, the watcher's PINGs left out. */
    writtenSince: (from: number) => written.slice(from).filter((w) => !/^\*1\r\n\$4\r\nping\r\n$/i.test(w)),
    writes: () => written.length,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const write of held.splice(0)) write();
    },
    down,
    up: async () => {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
  };
}

const untilReady = (h: Harness, redis: 'ok' | 'degraded') =>
  vi.waitUntil(async () => (await readiness(h)).body.redis === redis, { timeout: 10_000, interval: 100 });

describe.skipIf(target.unavailable !== null || redisProblem !== null)('a Redis that stops answering', () => {
  it('the first limited call waits the command timeout, then every limit holds per process; shared again once it answers', async () => {
    const proxy = await proxiedRedis(new URL(REDIS_URL));
    const { h, store, warnings } = await nodeOn(proxy.url);
    expect(warnings).toEqual([]);
    expect(store.client.status).toBe('ready');
    expect(store.mode()).toBe('shared');
    expect((await health(h)).body).toMatchObject({ success: true, redis: 'ok' });
    expect((await readiness(h)).body).toMatchObject({ success: true, redis: 'ok' });

    proxy.freeze();
    expect(await callsStillAnswer(h, 3000)).toEqual({ sendCode: 200, verifyGift: 404, unknownRoute: 404 });
    await vi.waitUntil(() => warnings.length > 0, { timeout: 3000, interval: 50 });
    expect(warnings.join('\n')).toMatch(/^redis: .*timed out.*counted in this process only/i);
    // Counted in memory, without asking Redis: nothing but the watcher's PINGs goes its way meanwhile.
    const before = proxy.writes();
    expect(await codeRequests(h, freshIp(), 4)).toEqual([200, 200, 200, 429]);
    expect(proxy.writtenSince(before), 'commands sent to a Redis that does not answer').toEqual([]);
    const report = await health(h);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ database: 'ok', redis: 'degraded' });
    expect(await readiness(h)).toEqual({ status: 200, body: { success: true, database: 'ok', storage: 'ok', redis: 'degraded' } });

    // Redis answers again (what it held is answered late, in order): the next PING makes the limits shared.
    proxy.thaw();
    await untilReady(h, 'ok');
    expect(warnings.at(-1)).toBe('redis: answering again; rate limits are shared again');
    expect(await codeRequests(h, freshIp(), 4)).toEqual([200, 200, 200, 429]);
    expect(store.mode()).toBe('shared');
  });
});

describe.skipIf(target.unavailable !== null || redisProblem !== null)('two API nodes while Redis goes down and comes back', () => {
  it('down: each node counts a client alone, with the same limit; back: one count for both nodes again', async () => {
    const proxy = await proxiedRedis(new URL(REDIS_URL));
    const a = await nodeOn(proxy.url);
    const b = await nodeOn(proxy.url);
    // Shared: 2 requests through A and 1 through B use up the client's 3; the 4th is refused by either node.
    const before = freshIp();
    expect([...(await codeRequests(a.h, before, 2)), ...(await codeRequests(b.h, before, 2))]).toEqual([200, 200, 200, 429]);

    await proxy.down();
    await untilReady(a.h, 'degraded');
    await untilReady(b.h, 'degraded');
    const during = freshIp();
    expect(await codeRequests(a.h, during, 4)).toEqual([200, 200, 200, 429]);
    expect(await codeRequests(b.h, during, 4)).toEqual([200, 200, 200, 429]);

    await proxy.up();
    await untilReady(a.h, 'ok');
    await untilReady(b.h, 'ok');
    for (const node of [a, b]) expect(node.warnings.at(-1)).toBe('redis: answering again; rate limits are shared again');
    const after = freshIp();
    expect([...(await codeRequests(a.h, after, 2)), ...(await codeRequests(b.h, after, 2))]).toEqual([200, 200, 200, 429]);
  });
});
