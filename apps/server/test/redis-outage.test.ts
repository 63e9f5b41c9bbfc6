import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../scripts/lib/processes.mjs';
import { createRateLimitStore, type RateLimitStore } from '../src/adapters/rate-limit-store.ts';
import { DATABASE_TARGETS } from './helpers/databases.ts';
import { createHarness, json, uniqueEmail, type Harness } from './helpers/harness.ts';
import { REDIS_URL, redisProblem } from './helpers/redis.ts';

/**
 * Shared rate limits in Redis (REDIS_URL) fail open: a Redis that is down, or that accepts commands and never
 * answers, neither refuses nor hangs sign-ins and scans. /api/health names it; readiness does not depend on it.
 */

const target = DATABASE_TARGETS[0]!;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
}, 60_000);

async function nodeOn(redisUrl: string) {
  const warnings: string[] = [];
  const store = await createRateLimitStore(redisUrl, (line) => warnings.push(line), { watchEveryMs: 200 });
  if (store.kind === 'redis') closers.push(() => Promise.resolve(store.client.disconnect()));
  const node = await createHarness(target, { rateLimitStore: store });
  closers.push(() => node.close());
  return { h: node.harness, store, warnings };
}

/** The calls a Redis outage must not break: each answers (no 5xx) within `withinMs`. */
async function callsStillAnswer(h: Harness, withinMs: number) {
  const calls = {
    sendCode: () =>
      h.app.inject({ method: 'POST', url: '/api/gift-sender/send-email', payload: { email: uniqueEmail('outage'), type: 'sender' } }),
    verifyGift: () => h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${'0'.repeat(32)}` }),
    unknownRoute: () => h.app.inject({ method: 'GET', url: '/api/nothing-here' }),
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

const health = async (h: Harness) => {
  const res = await h.app.inject({ method: 'GET', url: '/api/health' });
  return { status: res.statusCode, body: json<Record<string, unknown>>(res) };
};

describe.skipIf(target.unavailable !== null)('a Redis that is down', () => {
  it('limits fail open: the calls answer as without limits; health names Redis, readiness does not need it', async () => {
    const { h, warnings } = await nodeOn(`redis://127.0.0.1:${await freePort()}`);
    expect(warnings.join('\n')).toMatch(/^redis: .*rate limits are not enforced until it answers again/);
    expect(await callsStillAnswer(h, 3000)).toEqual({ sendCode: 200, verifyGift: 404, unknownRoute: 404 });
    const report = await health(h);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ success: false, database: 'ok', storage: 'ok', mail: 'ok', redis: 'unreachable' });
    expect((await h.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});

/** A TCP proxy in front of Redis that can be frozen: it keeps every connection open and forwards nothing more. */
async function freezableRedis(upstream: URL) {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const redis = connect(Number(upstream.port || 6379), upstream.hostname);
    for (const s of [client, redis]) sockets.add(s);
    client.on('data', (d: Buffer) => void (frozen || redis.write(d)));
    redis.on('data', (d: Buffer) => void (frozen || client.write(d)));
    const end = () => {
      client.destroy();
      redis.destroy();
    };
    for (const s of [client, redis]) s.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    server.close();
    await once(server, 'close');
  });
  return { url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`, freeze: () => void (frozen = true) };
}

describe.skipIf(target.unavailable !== null || redisProblem !== null)('a Redis that stops answering', () => {
  it('each limited call waits at most the command timeout, then goes on unlimited; health says so', async () => {
    const proxy = await freezableRedis(new URL(REDIS_URL));
    const { h, store, warnings } = await nodeOn(proxy.url);
    expect(warnings).toEqual([]);
    expect((store as Extract<RateLimitStore, { kind: 'redis' }>).client.status).toBe('ready');
    expect((await health(h)).body).toMatchObject({ success: true, redis: 'ok' });
    proxy.freeze();
    expect(await callsStillAnswer(h, 3000)).toEqual({ sendCode: 200, verifyGift: 404, unknownRoute: 404 });
    await vi.waitUntil(() => warnings.length > 0, { timeout: 3000, interval: 50 });
    expect(warnings.join('\n')).toMatch(/^redis: .*timed out.*rate limits are not enforced/i);
    const report = await health(h);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ database: 'ok', redis: 'unreachable' });
  });
});
