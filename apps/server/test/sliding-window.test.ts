import { LiveFrameMiss } from '@giftlens/contract/recipient';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisRateLimits } from '../src/adapters/rate-limit-store.ts';
import { memoryWindow, redisWindow, type SlidingWindow } from '../src/adapters/sliding-window.ts';
import { DATABASE_TARGETS } from './helpers/databases.ts';
import { createHarness, json, type Harness } from './helpers/harness.ts';
import { liveFrame } from './helpers/live.ts';
import { REDIS_URL, redisProblem } from './helpers/redis.ts';
import { newSendersGift, scanPhotos } from './helpers/recipient.ts';

/**
 * The counters behind the live-frame budget and rate (decision 029): all-or-nothing across limits, a sliding
 * window, and, in Redis, one count shared by every API node.
 */

const clients: Redis[] = [];
const redisClient = () => {
  const client = new Redis(REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
};
afterAll(() => clients.forEach((c) => c.disconnect()));

/** A prefix of this run's own, so earlier runs' keys (kept for a window) never count. */
const runPrefix = () => `gl:test:${randomBytes(6).toString('hex')}:`;

const kinds: { name: string; skip: boolean; nodes: (prefix: string) => [SlidingWindow, SlidingWindow] }[] = [
  { name: 'memory', skip: false, nodes: (p) => [memoryWindow(p), memoryWindow(p)] },
  { name: 'redis', skip: redisProblem !== null, nodes: (p) => [redisWindow(redisClient(), p), redisWindow(redisClient(), p)] },
];

for (const kind of kinds) {
  describe.skipIf(kind.skip)(`sliding window [${kind.name}]`, () => {
    it('admits up to max within the window, says how many are left, and when the oldest leaves', async () => {
      const [w] = kind.nodes(runPrefix());
      const limit = { key: 'a', max: 3, windowMs: 1000 };
      const left: number[] = [];
      for (const t of [0, 100, 200]) {
        const answer = await w.take([limit], 10_000 + t);
        if (!answer.admitted) throw new Error('refused too early');
        left.push(answer.left[0]!);
      }
      expect(left).toEqual([2, 1, 0]);
      expect(await w.take([limit], 10_900)).toEqual({ admitted: false, refusedBy: 0, retryAfterMs: 100 });
      // Sliding: the frame at 10 000 has left by 11 000, the one at 10 100 not yet.
      expect((await w.take([limit], 11_000)).admitted).toBe(true);
      expect((await w.take([limit], 11_050)).admitted).toBe(false);
    });

    it('counts under every limit or under none; release takes a count back', async () => {
      const [w] = kind.nodes(runPrefix());
      const target = { key: 'gift', max: 10, windowMs: 60_000 };
      const client = { key: 'ip', max: 2, windowMs: 60_000 };
      for (let i = 0; i < 2; i++) expect((await w.take([target, client], 1000 + i)).admitted).toBe(true);
      const refused = await w.take([target, client], 1002);
      expect(refused).toMatchObject({ admitted: false, refusedBy: 1 });
      // The refused take left the target's count alone: 8 still fit.
      const next = await w.take([target, { ...client, key: 'ip2' }], 1003);
      if (!next.admitted) throw new Error('refused');
      expect(next.left).toEqual([7, 1]);
      await next.release();
      const again = await w.take([target, { ...client, key: 'ip2' }], 1004);
      expect(again.admitted && again.left).toEqual([7, 1]);
    });

    it(kind.name === 'redis' ? 'two nodes share one count' : 'each node counts alone (one machine)', async () => {
      const [a, b] = kind.nodes(runPrefix());
      const limit = { key: 'shared', max: 2, windowMs: 60_000 };
      expect((await a.take([limit], 1)).admitted).toBe(true);
      expect((await b.take([limit], 2)).admitted).toBe(true);
      expect((await a.take([limit], 3)).admitted).toBe(kind.name !== 'redis');
      expect((await b.take([limit], 4)).admitted).toBe(kind.name !== 'redis');
    });
  });
}

/** Two API nodes (each its own app and database) sharing Redis: a client's live budget and rate hold across them. */
describe.skipIf(redisProblem !== null || DATABASE_TARGETS[0]!.unavailable !== null)('live frames on two API nodes sharing Redis', () => {
  const LIMIT = { perClientPerSecond: 3, perTarget: 100, perClient: 4, windowMs: 10 * 60 * 1000 };
  const nodes: { harness: Harness; close: () => Promise<void> }[] = [];
  const gifts: string[] = [];
  let photos: Awaited<ReturnType<typeof scanPhotos>>;
  beforeAll(async () => {
    photos = await scanPhotos();
    for (let i = 0; i < 2; i++) {
      const store = redisRateLimits(redisClient());
      expect(await store.check()).toBe(true);
      const node = await createHarness(DATABASE_TARGETS[0]!, { rateLimitStore: store, liveScanLimit: LIMIT });
      nodes.push(node);
      gifts.push(await newSendersGift(node.harness, photos.reference));
    }
  }, 60_000);
  afterAll(async () => {
    for (const n of nodes) await n.close();
  }, 60_000);

  // A client address no earlier run used (their counts stay in Redis for the window).
  const freshIp = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  /** Both nodes' clocks to one time, `ms` past the later of them (each node has its own clock here). */
  const advanceBoth = (ms: number) => {
    const now = Math.max(...nodes.map((n) => n.harness.clock.now().getTime())) + ms;
    for (const n of nodes) n.harness.clock.set(new Date(now));
  };
  const frame = (i: number, ip: string) => liveFrame(nodes[i % 2]!.harness, gifts[i % 2]!, photos.impostor, ip, { wait: false });

  it('the per-client budget: frames through either node count once', async () => {
    const ip = freshIp();
    const left: number[] = [];
    for (let i = 0; i < LIMIT.perClient; i++) {
      advanceBoth(1000);
      const res = await frame(i, ip);
      expect(res.statusCode, res.body).toBe(200);
      left.push(LiveFrameMiss.parse(json(res)).framesLeft);
    }
    expect(left).toEqual([3, 2, 1, 0]);
    for (let i = 0; i < 2; i++) {
      advanceBoth(1000);
      expect(json(await frame(i, ip))).toMatchObject({ code: 'live_budget_spent' });
    }
  });

  it('the per-second rate: a burst split over both nodes is refused past the limit', async () => {
    const ip = freshIp();
    advanceBoth(5000);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT.perClientPerSecond; i++) statuses.push((await frame(i, ip)).statusCode);
    // More than the window in real time, none on the app's clock: the count must still hold (Redis expiry is not it).
    await new Promise((r) => setTimeout(r, 1100));
    statuses.push((await frame(LIMIT.perClientPerSecond, ip)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
