import { texts } from '@giftlens/contract/texts';
import { LiveFrameMiss, LiveFrameResponse } from '@giftlens/contract/recipient';
import { afterAll, beforeAll, describe, expect, it as plainIt } from 'vitest';
import type { MatchDecision, Recogniser } from '../src/adapters/recogniser.ts';
import { createMatcherRecogniser } from '../src/adapters/recogniser.ts';
import { createFramePool, FRAME_POOL } from '../src/modules/scans/frame-pool.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { liveFrame, recipientLiveFrame } from './helpers/live.ts';
import { activeGift, recipientSignIn, scanPhotos } from './helpers/recipient.ts';

/**
 * Evidence pooled over live frames (decision 047): two frames under the matcher's bar decide together only
 * within one scanning session, one target and one gift, within the window; and a miss that found the gift small in
 * the frame says "Move closer". The matcher is scripted here (what it answers for each frame), so the tests check
 * the server's pooling, not the matcher's figures.
 */

const real = createMatcherRecogniser({ size: 1 });
afterAll(() => real.close());

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
  // the worker's start (OpenCV, the descriptor check) is paid here, not by the first test's enrolment
  await real.enrol(photos.reference);
}, 120_000);
/** What the matcher answers to the next live frames, in order (then: nothing found). */
const script: Partial<MatchDecision>[] = [];
const scripted: Recogniser = {
  ...real,
  queued: () => false,
  matchLive: () => Promise.resolve({ matched: false, bestIndex: -1, score: 0, inliers: 0, ms: 1, vetted: false, ...script.shift() }),
};
/** A frame under the bar (15) that still finds candidate `bestIndex` at the pooled bar. */
const weak = (bestIndex = 0, extra: Partial<MatchDecision> = {}): Partial<MatchDecision> => ({
  bestIndex,
  inliers: FRAME_POOL.minInliers,
  score: 0.46,
  coverage: 0.3,
  vetted: true,
  ...extra,
});

let ipCounter = 0;
const newIp = () => `10.29.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const session = () => `s${crypto.randomUUID().replace(/-/g, '')}`;

const revealed = (res: Awaited<ReturnType<typeof liveFrame>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return LiveFrameResponse.parse(json(res)).success;
};

describeEachDatabase(
  'live frames pooled within one scanning session and gift',
  (get) => {
    let sender: string;
    const newGift = (recipientEmail = uniqueEmail('maya')) => activeGift(get(), sender, { photo: photos.reference, recipientEmail });
    beforeAll(async () => {
      sender = (await signIn(get(), uniqueEmail('sender'), 'Asha')).cookie;
    });

    it('two weak frames of the same session and gift reveal on the second', async () => {
      const h: Harness = get();
      const giftId = await newGift();
      const s = session(), ip = newIp();
      script.push(weak(), weak());
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
      const second = await liveFrame(h, giftId, photos.genuine, ip, { session: s });
      expect(LiveFrameResponse.parse(json(second))).toMatchObject({ success: true, giftId, matchResult: { matched: true, score: 0.5 } });
    });

    it('never across sessions, nor without one, nor under the pooled bar', async () => {
      const h = get();
      const giftId = await newGift();
      const ip = newIp();
      script.push(weak(), weak());
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: session() }))).toBe(false);
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: session() }))).toBe(false);
      script.push(weak(), weak());
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip))).toBe(false);
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip))).toBe(false);
      const s = session();
      script.push(weak(0, { inliers: FRAME_POOL.minInliers - 1 }), weak(0, { inliers: FRAME_POOL.minInliers - 1 }));
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
      // a malformed session id is refused before the frame is matched or counted against the gift's budget
      const bad = await liveFrame(h, giftId, photos.genuine, ip, { session: 'short' });
      expect(bad.statusCode).toBe(400);
      expect(json(bad)).toEqual({ success: false, error: texts.recipient.scanSessionInvalid, code: 'invalid_scan_session' });
      expect(script).toEqual([]);
    });

    it('never frames whose evidence the whole-gift check refused (a sibling product: decision 056)', async () => {
      const h = get();
      const giftId = await newGift();
      const s = session(), ip = newIp();
      script.push(weak(0, { vetted: false }), weak(0, { vetted: false }), weak(0, { vetted: false }));
      for (let i = 0; i < 3; i++) expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
      // a vetted frame then pools with nothing before it: the refused ones were never kept
      script.push(weak());
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
      expect(script).toEqual([]);
    });

    it('never across gifts: one session, frames that found two different gifts of the recipient', async () => {
      const h = get();
      const email = uniqueEmail('maya');
      await newGift(email);
      const a = await newGift(email);
      const { cookie, recipientId } = await recipientSignIn(h, email);
      const s = session(), ip = newIp();
      script.push(weak(0), weak(1));
      expect(revealed(await recipientLiveFrame(h, cookie, recipientId, photos.genuine, ip, s))).toBe(false);
      expect(revealed(await recipientLiveFrame(h, cookie, recipientId, photos.genuine, ip, s))).toBe(false);
      // ... and the same session id on another linked gift (another target) does not pool with them either
      script.push(weak(0));
      expect(revealed(await liveFrame(h, a, photos.genuine, ip, { session: s }))).toBe(false);
    });

    it('only within the window', async () => {
      const h = get();
      const giftId = await newGift();
      const s = session(), ip = newIp();
      script.push(weak(), weak());
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
      h.clock.advance(FRAME_POOL.windowMs);
      expect(revealed(await liveFrame(h, giftId, photos.genuine, ip, { session: s }))).toBe(false);
    });

    it('a miss that found the gift small in the frame says "Move closer"; a miss that did not, nothing', async () => {
      const h = get();
      const giftId = await newGift();
      const ip = newIp();
      script.push({ bestIndex: 0, inliers: 8, coverage: 0.05 });
      expect(LiveFrameMiss.parse(json(await liveFrame(h, giftId, photos.genuine, ip)))).toMatchObject({ hint: 'moveCloser' });
      script.push({ bestIndex: 0, inliers: 8, coverage: 0.4 }, { bestIndex: -1, inliers: 0 });
      expect(LiveFrameMiss.parse(json(await liveFrame(h, giftId, photos.genuine, ip))).hint).toBeUndefined();
      expect(LiveFrameMiss.parse(json(await liveFrame(h, giftId, photos.genuine, ip))).hint).toBeUndefined();
    });
  },
  { recogniser: scripted },
);

describe('the frame pool’s bounds', () => {
  const key = (i: number) => ({ session: `session-${String(i).padStart(12, '0')}`, target: 'gift:x', giftId: 'g' });

  plainIt('holds at most maxKeys keys, the oldest dropped first', () => {
    const pool = createFramePool({ ...FRAME_POOL, maxKeys: 3 });
    for (let i = 0; i < 5; i++) pool.add(key(i), FRAME_POOL.minInliers, 0);
    expect(pool.size()).toBe(3);
    expect(pool.add(key(0), FRAME_POOL.minInliers, 1)).toBe(false); // key 0 was dropped: this is its first frame again
    expect(pool.add(key(4), FRAME_POOL.minInliers, 1)).toBe(true);
  });

  plainIt('a decisive key is emptied, so the same frames never decide twice', () => {
    const pool = createFramePool({ ...FRAME_POOL, needFrames: 2 });
    expect(pool.add(key(1), FRAME_POOL.minInliers, 0)).toBe(false);
    expect(pool.add(key(1), FRAME_POOL.minInliers, 1)).toBe(true);
    expect(pool.add(key(1), FRAME_POOL.minInliers, 2)).toBe(false);
  });

  plainIt('frames under the pooled bar are not kept at all', () => {
    const pool = createFramePool();
    pool.add(key(2), FRAME_POOL.minInliers - 1, 0);
    expect(pool.size()).toBe(0);
  });
});
