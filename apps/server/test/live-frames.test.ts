import { LiveFrameMiss, LiveFrameResponse, ScanBusyBody } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { createMatcherRecogniser, RecogniserBusyError } from '../src/adapters/recogniser.ts';
import { changedTables, databaseFingerprint } from '../hostile/fuzz/fingerprint.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { filesContaining, filesUnder, liveFrame, recipientLiveFrame } from './helpers/live.ts';
import { activeGift, directScan, newSendersGift, recipientSignIn, revealCookie, scanPhotos } from './helpers/recipient.ts';

/**
 * Live scanning, server side (decision 029): frames matched in memory, a reveal on the first decisive one,
 * misses that record nothing, the live budget and per-second rate, the lowest priority at the matcher.
 */

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

/** Small budgets so the tests reach them: 6 frames a gift, 9 a client, 4 a second, within 10 minutes. */
const LIMIT = { perClientPerSecond: 4, perTarget: 6, perClient: 9, windowMs: 10 * 60 * 1000 };

let ipCounter = 0;
/** A client address of its own for each phone in a test. */
const newIp = () => `10.20.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const count = async (h: Harness, table: 'scan_failures' | 'reveal_grants') =>
  Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const scansUsed = async (h: Harness, giftId: string) =>
  (await h.db.selectFrom('gifts').select('scans_used').where('id', '=', giftId).executeTakeFirstOrThrow()).scans_used;

function expectMiss(res: LightMyRequestResponse): number {
  expect(res.statusCode, res.body).toBe(200);
  const body = LiveFrameMiss.parse(json(res));
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.headers['cache-control']).toBe('no-store');
  return body.framesLeft;
}

function expectRefused(res: LightMyRequestResponse, code: string, text: string) {
  expect(res.statusCode, res.body).toBe(429);
  expect(json(res)).toMatchObject({ success: false, code, error: text });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(json(res).retryAfter).toBe(retryAfter);
  return retryAfter;
}

describeEachDatabase(
  'live frames',
  (get) => {
    let sender: string;
    const newGift = (recipientEmail = uniqueEmail('maya')) =>
      activeGift(get(), sender, { photo: photos.reference, recipientEmail });
    beforeAll(async () => {
      sender = (await signIn(get(), uniqueEmail('sender'), 'Asha')).cookie;
    });

    it('a genuine frame reveals on the first live frame: the reveal counted, the grant cookie set, the message readable', async () => {
      const h = get();
      const giftId = await newGift();
      const res = await liveFrame(h, giftId, photos.genuine, newIp());
      expect(res.statusCode, res.body).toBe(200);
      const body = LiveFrameResponse.parse(json(res));
      expect(body).toMatchObject({ success: true, giftId, matchResult: { matched: true, giftId } });
      expect(await scansUsed(h, giftId)).toBe(1);
      const grant = revealCookie(res, giftId);
      expect(grant).toBeTruthy();
      const message = await h.app.inject({ url: API.giftMessage(giftId), headers: { cookie: grant ?? '' } });
      expect(message.statusCode, message.body).toBe(200);
      expect(json(message)).toMatchObject({ success: true, senderName: 'Asha' });
    });

    it('an impostor frame misses with framesLeft going down, records no failed scan, and Take Photo keeps all its attempts', async () => {
      const h = get();
      const giftId = await newGift();
      const ip = newIp();
      const failures = await count(h, 'scan_failures');
      const left: number[] = [];
      for (let i = 0; i < 4; i++) left.push(expectMiss(await liveFrame(h, giftId, photos.impostor, ip)));
      expect(left).toEqual([5, 4, 3, 2]);
      expect(await count(h, 'scan_failures')).toBe(failures);
      expect(await scansUsed(h, giftId)).toBe(0);

      // The failure limit here is 2 per gift: both explicit attempts are still decided (and counted), the third is 429.
      for (let i = 0; i < 2; i++) {
        const scan = await directScan(h, giftId, photos.impostor);
        expect(scan.statusCode, scan.body).toBe(200);
        expect(json(scan)).toMatchObject({ success: false, error: texts.recipient.noMatch });
      }
      expect(await count(h, 'scan_failures')).toBe(failures + 4);
      expect((await directScan(h, giftId, photos.impostor)).statusCode).toBe(429);
      // Live frames have their own budget: still a miss, not the failure limit.
      expect(expectMiss(await liveFrame(h, giftId, photos.impostor, ip))).toBe(1);
    });

    it('the budget per gift: beyond it 429 live_budget_spent with Retry-After, nothing matched, free again after the window', async () => {
      const h = get();
      const giftId = await newGift();
      // Each frame from another phone: only the gift's budget runs out.
      for (let i = 0; i < LIMIT.perTarget; i++) expectMiss(await liveFrame(h, giftId, photos.impostor, newIp()));
      const refused = await liveFrame(h, giftId, photos.genuine, newIp());
      const retryAfter = expectRefused(refused, 'live_budget_spent', texts.recipient.liveBudgetSpent);
      expect(retryAfter).toBeLessThanOrEqual(LIMIT.windowMs / 1000);
      expect(await scansUsed(h, giftId)).toBe(0);
      expect(revealCookie(refused, giftId)).toBeNull();

      h.clock.advance(retryAfter * 1000);
      const later = await liveFrame(h, giftId, photos.genuine, newIp());
      expect(later.statusCode, later.body).toBe(200);
      expect(LiveFrameResponse.parse(json(later)).success).toBe(true);
    });

    it('the budget per client address, across gifts', async () => {
      const h = get();
      const ip = newIp();
      const gifts = [await newGift(), await newGift()];
      const left: number[] = [];
      for (let i = 0; i < LIMIT.perClient; i++) left.push(expectMiss(await liveFrame(h, gifts[i % 2]!, photos.impostor, ip)));
      // framesLeft is the smaller of the gift's and the client's budget.
      expect(left.at(-1)).toBe(0);
      expectRefused(await liveFrame(h, gifts[0]!, photos.impostor, ip), 'live_budget_spent', texts.recipient.liveBudgetSpent);
      const third = await newGift();
      expectRefused(await liveFrame(h, third, photos.genuine, ip), 'live_budget_spent', texts.recipient.liveBudgetSpent);
      expect(await scansUsed(h, third)).toBe(0);
      // Another phone is not affected.
      expectMiss(await liveFrame(h, third, photos.impostor, newIp()));
    });

    it('the per-second rate: above it 429 too_many_frames with Retry-After; refused frames cost no budget', async () => {
      const h = get();
      const giftId = await newGift();
      const ip = newIp();
      const burst: LightMyRequestResponse[] = [];
      h.clock.advance(1000);
      for (let i = 0; i <= LIMIT.perClientPerSecond; i++) burst.push(await liveFrame(h, giftId, photos.impostor, ip, { wait: false }));
      expect(burst.slice(0, -1).map(expectMiss)).toEqual([5, 4, 3, 2]);
      const retryAfter = expectRefused(burst.at(-1)!, 'too_many_frames', texts.recipient.tooManyFrames);
      expect(retryAfter).toBe(1);
      // A sliding second: half of it later the burst still counts, a full second later it does not.
      h.clock.advance(500);
      expectRefused(await liveFrame(h, giftId, photos.impostor, ip, { wait: false }), 'too_many_frames', texts.recipient.tooManyFrames);
      h.clock.advance(500);
      // The refused frame took nothing from the budget.
      expect(expectMiss(await liveFrame(h, giftId, photos.impostor, ip, { wait: false }))).toBe(1);
    });

    it('the rate is checked before the photo is read or the gift looked up', async () => {
      const h = get();
      const ip = newIp();
      h.clock.advance(1000);
      const url = API.liveFrameDirect('0'.repeat(32));
      for (let i = 0; i < LIMIT.perClientPerSecond; i++) {
        const res = await h.app.inject({ method: 'POST', url, remoteAddress: ip });
        expect(res.statusCode).toBe(400);
      }
      const refused = await h.app.inject({ method: 'POST', url, remoteAddress: ip });
      expectRefused(refused, 'too_many_frames', texts.recipient.tooManyFrames);
    });

    it('the gift rules of process-scan: 404 for an unknown gift, 403 while the gift is unpaid', async () => {
      const h = get();
      const missing = await liveFrame(h, '0'.repeat(32), photos.genuine, newIp());
      expect(missing.statusCode).toBe(404);
      expect(json(missing).error).toBe(texts.sender.giftNotFound);
      const unpaid = await activeGift(h, sender, { photo: photos.reference, pay: false });
      const res = await liveFrame(h, unpaid, photos.genuine, newIp());
      expect(res.statusCode).toBe(403);
      expect(json(res)).toMatchObject({ code: 'gift_not_ready', error: texts.recipient.giftNotReady });
      const unreadable = await liveFrame(h, unpaid, Buffer.from('not a photo'), newIp());
      expect(unreadable.statusCode).toBe(400);
      expect(json(unreadable).error).toBe(texts.recipient.scanUnreadable);
    });

    it('recipient flow: the session required, its own recipient_id, the budget per e-mail, a reveal on a genuine frame', async () => {
      const h = get();
      const email = uniqueEmail('ravi');
      const giftId = await newGift(email);
      const { cookie, recipientId } = await recipientSignIn(h, email);

      const noSession = await h.app.inject({ method: 'POST', url: API.liveFrame, remoteAddress: newIp() });
      expect(noSession.statusCode).toBe(401);
      const other = await recipientLiveFrame(h, cookie, 'f'.repeat(32), photos.genuine, newIp());
      expect(other.statusCode).toBe(403);
      // Cross-site, exactly as process-scan: refused before anything else.
      const crossSite = await h.app.inject({
        method: 'POST',
        url: API.liveFrame,
        headers: { cookie, origin: 'https://evil.example' },
        remoteAddress: newIp(),
      });
      expect(crossSite.statusCode).toBe(403);
      expect(json(crossSite).error).toBe(texts.sender.crossSiteRefused);

      const failures = await count(h, 'scan_failures');
      const left: number[] = [];
      for (let i = 0; i < LIMIT.perTarget - 1; i++) left.push(expectMiss(await recipientLiveFrame(h, cookie, recipientId, photos.impostor, newIp())));
      expect(left).toEqual([5, 4, 3, 2, 1]);
      expect(await count(h, 'scan_failures')).toBe(failures);
      const hit = await recipientLiveFrame(h, cookie, recipientId, photos.genuine, newIp());
      expect(hit.statusCode, hit.body).toBe(200);
      expect(LiveFrameResponse.parse(json(hit))).toMatchObject({ success: true, giftId });
      expect(revealCookie(hit, giftId)).toBeTruthy();
      expectRefused(
        await recipientLiveFrame(h, cookie, recipientId, photos.genuine, newIp()),
        'live_budget_spent',
        texts.recipient.liveBudgetSpent,
      );
      expect(await scansUsed(h, giftId)).toBe(1);
    });

    it('never stored: no file under DATA_DIR and no table changes for misses; only the reveal rows on the decisive frame', async () => {
      const h = get();
      const email = uniqueEmail('noor');
      const giftId = await newGift(email);
      const { cookie, recipientId } = await recipientSignIn(h, email);
      // A slice of each frame's entropy-coded data: found in a file only if the frame was written there.
      const needles = [photos.impostor, photos.genuine].map((p) => p.subarray(p.length >> 1, (p.length >> 1) + 256));
      const tables = async () => ({
        fingerprint: await databaseFingerprint(h.db, h.target),
        failures: await h.db.selectFrom('scan_failures').selectAll().orderBy('id').execute(),
      });
      const filesBefore = await filesUnder(h.dataDir);
      const before = await tables();

      for (let i = 0; i < 2; i++) {
        expectMiss(await liveFrame(h, giftId, photos.impostor, newIp()));
        expectMiss(await recipientLiveFrame(h, cookie, recipientId, photos.impostor, newIp()));
      }
      const afterMisses = await tables();
      expect(changedTables(before.fingerprint, afterMisses.fingerprint)).toEqual([]);
      expect(afterMisses.failures).toEqual(before.failures);

      const hit = await liveFrame(h, giftId, photos.genuine, newIp());
      expect(LiveFrameResponse.parse(json(hit)).success).toBe(true);
      const afterHit = await tables();
      // The reveal counted on the gift, its grant, its line in the gift's timeline and the sender's first-opened notice job: nothing else.
      expect(changedTables(afterMisses.fingerprint, afterHit.fingerprint).sort()).toEqual(['gifts', 'jobs', 'reveal_grants', 'scan_events']);
      expect(afterHit.failures).toEqual(before.failures);

      const filesAfter = await filesUnder(h.dataDir);
      expect([...filesAfter.keys()].filter((f) => !filesBefore.has(f))).toEqual([]);
      for (const needle of needles) expect(await filesContaining(h.dataDir, needle)).toEqual([]);
    });

    it('the plan rules of process-scan: no frame matched past the plan\'s reveals or its validity', async () => {
      const h = get();
      const basic = await activeGift(h, sender, { planId: 'basic_in', photo: photos.reference, recipientEmail: uniqueEmail('b') });
      for (let i = 0; i < 3; i++) expect(LiveFrameResponse.parse(json(await liveFrame(h, basic, photos.genuine, newIp()))).success).toBe(true);
      const fourth = await liveFrame(h, basic, photos.genuine, newIp());
      expect(fourth.statusCode).toBe(403);
      expect(json(fourth)).toMatchObject({ code: 'scan_limit_reached', error: texts.recipient.scanLimitReached });
      expect(revealCookie(fourth, basic)).toBeNull();
      expect(await scansUsed(h, basic)).toBe(3);

      const fresh = await activeGift(h, sender, { planId: 'basic_in', photo: photos.reference, recipientEmail: uniqueEmail('c') });
      h.clock.advance(24 * 60 * 60 * 1000 + 1000);
      const late = await liveFrame(h, fresh, photos.genuine, newIp());
      expect(late.statusCode).toBe(410);
      expect(json(late).error).toBe(texts.recipient.giftExpired);
      expect(await scansUsed(h, fresh)).toBe(0);
    });
  },
  { liveScanLimit: LIMIT, scanFailureLimit: { perTarget: 2, perClient: 100, windowMs: 10 * 60 * 1000 } },
);

/** One worker and a queue of one explicit scan: enough to see who has priority. */
const recogniser = createMatcherRecogniser({ size: 1, queue: 1 });
afterAll(() => recogniser.close());

/** Resolves once `ready()` holds, polling the event loop. */
async function until(ready: () => boolean) {
  const started = Date.now();
  while (!ready()) {
    if (Date.now() - started > 10_000) throw new Error('the matcher never got there');
    await new Promise((r) => setImmediate(r));
  }
}

function expectBusy(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(ScanBusyBody.parse(json(res))).toMatchObject({ code: 'scan_busy', error: texts.recipient.scanBusy });
}

describeEachDatabase(
  'live frames at the matcher: explicit scans first',
  (get) => {
    let giftId: string;
    beforeAll(async () => {
      // Premium: 10 reveals, enough for every accepted genuine scan below.
      giftId = await newSendersGift(get(), photos.reference);
    });

    it('a live frame is refused with 503 while the matcher has any queue; explicit scans are still accepted', async () => {
      const h = get();
      const explicit = directScan(h, giftId, photos.impostor);
      await until(() => recogniser.queued());
      // Before the photo is read: an empty body would be 400 (or 401 without a session) had the route read it.
      expectBusy(await h.app.inject({ method: 'POST', url: API.liveFrameDirect(giftId), remoteAddress: newIp() }));
      expectBusy(await h.app.inject({ method: 'POST', url: API.liveFrame, remoteAddress: newIp() }));
      expectBusy(await liveFrame(h, giftId, photos.genuine, newIp()));
      const second = directScan(h, giftId, photos.impostor);
      expect((await explicit).statusCode).toBe(200);
      expect((await second).statusCode).toBe(200);
      expect(await scansUsed(h, giftId)).toBe(0);
    });

    it('the matcher itself refuses a live frame once every worker is taken, where an explicit scan would queue', async () => {
      const reference = (await recogniser.enrol(photos.reference)).reference;
      const running = recogniser.match(photos.impostor, [[reference]]);
      expect(recogniser.queued()).toBe(true);
      expect(recogniser.busy()).toBe(false);
      await expect(recogniser.matchLive(photos.genuine, [[reference]])).rejects.toBeInstanceOf(RecogniserBusyError);
      expect((await running).matched).toBe(false);
      expect((await recogniser.matchLive(photos.genuine, [[reference]])).matched).toBe(true);
    });

    it('frames being matched never push an explicit scan into 503', async () => {
      const h = get();
      const ip = newIp();
      const frame = liveFrame(h, giftId, photos.impostor, ip);
      await until(() => recogniser.queued());
      // The worker is on the live frame, which takes no place of the explicit scans': both fit (one running, one
      // queued, as without live traffic), while another live frame is refused.
      const explicit = [directScan(h, giftId, photos.impostor), directScan(h, giftId, photos.impostor)];
      expectBusy(await liveFrame(h, giftId, photos.impostor, ip));
      expectMiss(await frame);
      for (const res of await Promise.all(explicit)) expect(res.statusCode, res.body).toBe(200);
    });
  },
  { recogniser, liveScanLimit: LIMIT, scanFailureLimit: { perTarget: 100, perClient: 100, windowMs: 60_000 } },
);

/** The matcher above, except that it turns live frames away at queue time while `turnAway` is set. */
let turnAway = true;
const turningAway: typeof recogniser = {
  ...recogniser,
  queued: () => false,
  matchLive: (query, references) =>
    turnAway ? Promise.reject(new RecogniserBusyError(1)) : recogniser.matchLive(query, references),
};

describeEachDatabase(
  'live frames turned away by the matcher after admission',
  (get) => {
    it('answer 503 scan_busy and give their budget back', async () => {
      const h = get();
      const giftId = await newSendersGift(h, photos.reference);
      const ip = newIp();
      turnAway = true;
      for (let i = 0; i < LIMIT.perTarget + 2; i++) expectBusy(await liveFrame(h, giftId, photos.impostor, ip));
      turnAway = false;
      expect(expectMiss(await liveFrame(h, giftId, photos.impostor, ip))).toBe(LIMIT.perTarget - 1);
    });
  },
  { recogniser: turningAway, liveScanLimit: LIMIT },
);
