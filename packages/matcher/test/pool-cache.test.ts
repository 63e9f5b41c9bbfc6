/** The pool's reference cache and its transfers (decision 045). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatcherPool, MatcherError, type MatchDecision, type ReferenceLoader } from '../src/index.ts';
import { workersOf } from '../src/pool.ts';
import { photoOf, poster } from './fixtures.ts';

/** A loader over a map of bytes that counts which keys it was asked for; it hands out fresh copies (transferred). */
function loaderOf(bytes: Map<string, Uint8Array>) {
  const asked: string[] = [];
  const load: ReferenceLoader = (keys) => {
    asked.push(...keys);
    return Promise.resolve(new Map(keys.flatMap((k) => (bytes.has(k) ? [[k, new Uint8Array(bytes.get(k)!)] as const] : []))));
  };
  return { asked, load };
}

const decisionOf = (d: MatchDecision) => ({ matched: d.matched, bestIndex: d.bestIndex, score: d.score, inliers: d.inliers });

describe('the matcher pool keeps keyed references in its workers', () => {
  const pool = createMatcherPool({ size: 1 });
  afterAll(() => pool.close());
  let refA: Uint8Array, refB: Uint8Array, photoA: Buffer, photoB: Buffer;
  beforeAll(async () => {
    const [a, b] = [await poster(21), await poster(22)];
    [refA, refB] = (await Promise.all([pool.enrol(a), pool.enrol(b)])).map((r) => r.reference) as [Uint8Array, Uint8Array];
    [photoA, photoB] = await Promise.all([photoOf(a, -15, 0.7), photoOf(b, 20, 0.75)]);
  }, 60_000);

  it('sends a reference once: the next scan finds it in the worker (hit) and decides exactly as with the bytes', async () => {
    const { asked, load } = loaderOf(new Map([['a1', refA]]));
    const before = pool.stats();
    const first = await pool.match(photoA, [[{ key: 'a1', load }]]);
    const second = await pool.match(photoA, [[{ key: 'a1', load }]]);
    const plain = await pool.match(photoA, [[refA]]);
    expect(asked).toEqual(['a1']);
    const after = pool.stats();
    expect(after.misses - before.misses).toBe(1);
    expect(after.hits - before.hits).toBe(1);
    expect(first.matched).toBe(true);
    expect(decisionOf(second)).toEqual(decisionOf(first));
    expect(decisionOf(plain)).toEqual(decisionOf(first));
  }, 30_000);

  it("misses after a gift's photos change: the new photo's key is loaded and decides", async () => {
    const bytes = new Map([['gift1-photo1', refA]]);
    const { asked, load } = loaderOf(bytes);
    expect((await pool.match(photoB, [[{ key: 'gift1-photo1', load }]])).matched).toBe(false);
    // the sender replaced the gift's photo: a new row, a new key
    bytes.set('gift1-photo2', refB);
    const d = await pool.match(photoB, [[{ key: 'gift1-photo2', load }]]);
    expect(asked).toEqual(['gift1-photo1', 'gift1-photo2']);
    expect(d).toMatchObject({ matched: true, bestIndex: 0 });
  }, 30_000);

  it('leaves a key out of the scan when its loader has no bytes for it (its photo deleted meanwhile)', async () => {
    const { load } = loaderOf(new Map([['kept', refA]]));
    const d = await pool.match(photoA, [[{ key: 'deleted', load }], [{ key: 'kept', load }]]);
    expect(d).toMatchObject({ matched: true, bestIndex: 1 });
  }, 30_000);

  it('refuses a key with neither bytes nor a loader', async () => {
    const err = await pool.match(photoA, [[{ key: 'x' }]]).catch((e: unknown) => e);
    expect((err as MatcherError).code).toBe('invalid_reference');
  });

  it("never detaches the caller's buffers (photo, plain and keyed references); the loader's own copies are transferred", async () => {
    const photo = new Uint8Array(photoA);
    const plain = new Uint8Array(refA);
    const handed = new Uint8Array(refB);
    const loaded: Uint8Array[] = [];
    const load: ReferenceLoader = (keys) =>
      Promise.resolve(
        new Map(
          keys.map((k) => {
            const b = new Uint8Array(refA);
            loaded.push(b);
            return [k, b];
          }),
        ),
      );
    await pool.match(photo, [[plain], [{ key: `handed-${Math.random()}`, bytes: handed }], [{ key: `loaded-${Math.random()}`, load }]]);
    expect(photo.byteLength).toBe(photoA.byteLength);
    expect(plain).toEqual(refA);
    expect(handed).toEqual(refB);
    expect(loaded).toHaveLength(1);
    expect(loaded[0]!.byteLength).toBe(0); // transferred, not cloned
  }, 30_000);
});

describe('the reference cache is bounded in bytes', () => {
  it('drops the least recently used references past its budget, and loads them again when asked', async () => {
    const [a, b] = [await poster(31), await poster(32)];
    const enrolPool = createMatcherPool({ size: 1 });
    const [refA, refB] = (await Promise.all([enrolPool.enrol(a), enrolPool.enrol(b)])).map((r) => r.reference) as [Uint8Array, Uint8Array];
    await enrolPool.close();
    const budget = Math.max(refA.byteLength, refB.byteLength) + 100; // room for one of them
    const pool = createMatcherPool({ size: 1, cacheBytes: budget });
    try {
      const { asked, load } = loaderOf(new Map([['a', refA], ['b', refB]]));
      const photoA = await photoOf(a, 10, 0.75);
      expect((await pool.match(photoA, [[{ key: 'a', load }]])).matched).toBe(true);
      expect(pool.stats().cachedBytes).toEqual([refA.byteLength]);
      await pool.match(photoA, [[{ key: 'b', load }]]);
      expect(pool.stats().cachedBytes).toEqual([refB.byteLength]); // a was dropped for b
      expect((await pool.match(photoA, [[{ key: 'a', load }]])).matched).toBe(true);
      expect(asked).toEqual(['a', 'b', 'a']);
      // one scan needing more than the budget still gets all of it, and the cache shrinks back on the next
      const both = await pool.match(photoA, [[{ key: 'b', load }], [{ key: 'a', load }]]);
      expect(both).toMatchObject({ matched: true, bestIndex: 1 });
      expect(pool.stats().cachedBytes[0]).toBe(refA.byteLength + refB.byteLength);
      await pool.match(photoA, [[{ key: 'a', load }]]);
      expect(pool.stats().cachedBytes[0]).toBeLessThanOrEqual(budget);
      expect(pool.stats().asked).toBe(0);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('a worker without its cache still answers correctly', () => {
  it('after a restart (the worker died): the new worker gets the bytes again', async () => {
    const gift = await poster(41);
    const pool = createMatcherPool({ size: 1 });
    try {
      const ref = (await pool.enrol(gift)).reference;
      const photo = await photoOf(gift, -10, 0.8);
      const { asked, load } = loaderOf(new Map([['r', ref]]));
      const before = await pool.match(photo, [[{ key: 'r', load }]]);
      const [worker] = workersOf(pool);
      await worker!.terminate();
      const after = await pool.match(photo, [[{ key: 'r', load }]]);
      expect(workersOf(pool)[0]).not.toBe(worker);
      expect(asked).toEqual(['r', 'r']);
      expect(decisionOf(after)).toEqual(decisionOf(before));
      expect(after.matched).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('when the worker lost a reference the pool believes it holds: the worker asks, the pool sends it', async () => {
    const gift = await poster(42);
    const pool = createMatcherPool({ size: 1 });
    try {
      const ref = (await pool.enrol(gift)).reference;
      const photo = await photoOf(gift, 15, 0.8);
      const { asked, load } = loaderOf(new Map([['r', ref]]));
      const before = await pool.match(photo, [[{ key: 'r', load }]]);
      // the worker drops it behind the pool's back (an answer to no task: only its evict list applies)
      workersOf(pool)[0]!.postMessage({ id: -1, op: 'provide', provide: [], evict: ['r'] });
      const after = await pool.match(photo, [[{ key: 'r', load }]]);
      expect(pool.stats().asked).toBe(1);
      expect(asked).toEqual(['r', 'r']);
      expect(decisionOf(after)).toEqual(decisionOf(before));
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('scans go to the idle worker that holds their references', () => {
  it('with two idle workers, a scan of a cached gift goes where its references are', async () => {
    const gift = await poster(51);
    const pool = createMatcherPool({ size: 2 });
    try {
      const ref = (await pool.enrol(gift)).reference;
      const photo = await photoOf(gift, 5, 0.8);
      const { asked, load } = loaderOf(new Map([['r', ref]]));
      for (let i = 0; i < 4; i++) await pool.match(photo, [[{ key: 'r', load }]]);
      expect(asked).toEqual(['r']);
      expect([...pool.stats().cachedBytes].sort()).toEqual([0, ref.byteLength]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
