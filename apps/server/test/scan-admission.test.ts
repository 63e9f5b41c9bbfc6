import { ScanBusyBody } from '@giftlens/contract/recipient';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { createMatcherRecogniser } from '../src/adapters/recogniser.ts';
import { describeEachDatabase, it, json, type Harness } from './helpers/harness.ts';
import { newSendersGift, scanBody, scanPhotos } from './helpers/recipient.ts';

/**
 * Admission control in front of the matcher: one worker and no queue here, so a second scan arriving while one is
 * matched is refused with 503 + Retry-After, and nothing about a refused scan is counted.
 */
const recogniser = createMatcherRecogniser({ size: 1, queue: 0 });
afterAll(() => recogniser.close());

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

function expectBusy(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  const body = ScanBusyBody.parse(json(res));
  expect(body.retryAfter).toBe(1);
  expect(res.headers['cache-control']).toBe('no-store');
}

async function failureRows(h: Harness) {
  const row = await h.db.selectFrom('scan_failures').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function scansUsed(h: Harness, giftId: string) {
  const row = await h.db.selectFrom('gifts').select('scans_used').where('id', '=', giftId).executeTakeFirstOrThrow();
  return row.scans_used;
}

/** A direct scan of `giftId` from the client address `ip` (each phone has its own rate limit). */
function directScan(h: Harness, giftId: string, scan: Buffer, ip: string) {
  const body = scanBody(scan, { type: 'direct' });
  return h.app.inject({
    method: 'POST',
    url: `/api/verification-recipient/process-scan/${giftId}`,
    headers: body.headers,
    payload: body.payload,
    remoteAddress: ip,
  });
}

/** Resolves once the matcher is saturated (a scan is being matched), polling the event loop. */
async function untilBusy() {
  const started = Date.now();
  while (!recogniser.busy()) {
    if (Date.now() - started > 10_000) throw new Error('the matcher never became busy');
    await new Promise((r) => setImmediate(r));
  }
}

describeEachDatabase(
  'scan admission control',
  (get) => {
    let giftId: string;
    beforeAll(async () => {
      // Premium: 10 reveals, enough for every accepted genuine scan below.
      giftId = await newSendersGift(get(), photos.reference);
    });

    it('refuses scans beyond the queue with 503 + Retry-After; accepted ones are decided and counted, refused ones are not', async () => {
      const h = get();
      const failuresBefore = await failureRows(h);
      const usedBefore = await scansUsed(h, giftId);
      const kinds = ['genuine', 'impostor', 'genuine', 'impostor', 'genuine', 'impostor'] as const;
      const answers = await Promise.all(kinds.map((k, i) => directScan(h, giftId, photos[k], `10.0.1.${i + 1}`)));

      const accepted = answers.map((res, i) => ({ res, kind: kinds[i]! })).filter(({ res }) => res.statusCode !== 503);
      const refused = answers.filter((res) => res.statusCode === 503);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      refused.forEach(expectBusy);
      for (const { res, kind } of accepted) {
        expect(res.statusCode).toBe(200);
        expect(json<{ matchResult: { matched: boolean } }>(res).matchResult.matched).toBe(kind === 'genuine');
      }
      // Only accepted scans count: a reveal per accepted match, two failure rows (gift, address) per accepted miss.
      const matched = accepted.filter((a) => a.kind === 'genuine').length;
      const missed = accepted.length - matched;
      expect(await scansUsed(h, giftId)).toBe(usedBefore + matched);
      expect(await failureRows(h)).toBe(failuresBefore + 2 * missed);
    });

    it('refuses before the photo is read or the rate limit counts, on every scan route', async () => {
      const h = get();
      const ip = '10.0.2.1';
      const first = directScan(h, giftId, photos.impostor, ip);
      await untilBusy();
      // No body at all: had the route read it, these would be 400 (or 401 without a recipient session).
      const [direct, recipient, demo] = await Promise.all([
        h.app.inject({ method: 'POST', url: `/api/verification-recipient/process-scan/${giftId}`, remoteAddress: ip }),
        h.app.inject({ method: 'POST', url: '/api/verification-recipient/process-scan', remoteAddress: ip }),
        h.app.inject({ method: 'POST', url: '/api/demo/scan/birthday', remoteAddress: ip }),
      ]);
      [direct, recipient, demo].forEach(expectBusy);
      expect((await first).statusCode).toBe(200);

      // The rate limit (3 a minute here) counted the first scan only: two more are accepted, the next is 429.
      for (let i = 0; i < 2; i++) expect((await directScan(h, giftId, photos.impostor, ip)).statusCode).toBe(200);
      expect((await directScan(h, giftId, photos.impostor, ip)).statusCode).toBe(429);
    });
  },
  {
    recogniser,
    scanRateLimit: { max: 3, timeWindow: 60_000 },
    // The failed scans above must not hit the per-gift failure limit.
    scanFailureLimit: { perTarget: 100, perClient: 100, windowMs: 60_000 },
  },
);
