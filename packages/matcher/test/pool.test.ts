import { afterAll, describe, expect, it } from 'vitest';
import { createMatcherPool, MatcherError } from '../src/index.ts';
import { photoOf, poster } from './fixtures.ts';

describe('createMatcherPool', () => {
  const pool = createMatcherPool({ size: 1 });
  afterAll(() => pool.close());

  it('enrols and matches in worker threads', async () => {
    const gift = await poster(7);
    const other = await poster(8);
    const [a, b] = await Promise.all([pool.enrol(gift), pool.enrol(other)]);
    expect(a.quality.recognisable).toBe(true);
    const photo = await photoOf(gift, -25, 0.7);
    const [yes, no] = await Promise.all([pool.match(photo, [[a.reference]]), pool.match(photo, [[b.reference]])]);
    expect(yes).toMatchObject({ matched: true, bestIndex: 0 });
    expect(no.matched).toBe(false);
  }, 30_000);

  it('tells two photos of one box from two different boxes (lookalike), off the main thread', async () => {
    const gift = await poster(11);
    const [a, again, b] = await Promise.all([pool.enrol(gift), pool.enrol(await photoOf(gift, 12, 0.8)), pool.enrol(await poster(12))]);
    expect(await pool.lookalike(a.reference, [b.reference, again.reference])).toBe(true);
    expect(await pool.lookalike(a.reference, [b.reference])).toBe(false);
    expect(await pool.lookalike(a.reference, [])).toBe(false);
    const err = await pool.lookalike(a.reference, [new Uint8Array(4)]).catch((e: unknown) => e);
    expect((err as MatcherError).code).toBe('invalid_reference');
  }, 30_000);

  it('passes MatcherError codes back from the workers', async () => {
    const err = await pool.enrol(Buffer.from('nope')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MatcherError);
    expect((err as MatcherError).code).toBe('unreadable_image');
    const err2 = await pool.match(await poster(9), [[new Uint8Array(4)]]).catch((e: unknown) => e);
    expect((err2 as MatcherError).code).toBe('invalid_reference');
  }, 30_000);

  it('refuses strips too narrow to search and keeps working afterwards', async () => {
    const sharp = (await import('sharp')).default;
    const strip = await sharp({ create: { width: 64, height: 20000, channels: 3, background: '#777' } }).jpeg().toBuffer();
    const errs = await Promise.all(Array.from({ length: 30 }, () => pool.enrol(strip).catch((e: unknown) => e)));
    for (const e of errs) expect((e as MatcherError).code).toBe('image_too_small');
    const gift = await poster(10);
    const ref = (await pool.enrol(gift)).reference;
    expect((await pool.match(await photoOf(gift, 5, 0.8), [[ref]])).matched).toBe(true);
  }, 30_000);

  it('applies engine settings given as `config` in its workers only (benchmarks compare recipes this way)', async () => {
    const strict = createMatcherPool({ size: 1, config: { minInliers: 100_000 } });
    try {
      const gift = await poster(13);
      const ref = (await pool.enrol(gift)).reference;
      const photo = await photoOf(gift, 10, 0.75);
      const [normal, raised] = await Promise.all([pool.match(photo, [[ref]]), strict.match(photo, [[ref]])]);
      expect(normal.matched).toBe(true);
      expect(raised.matched).toBe(false);
      // the normal pool decides on the first pass (base pyramid level); the strict one goes on to every level
      expect(raised.inliers).toBeGreaterThan(normal.inliers);
      expect(normal.inliers).toBeGreaterThanOrEqual(15);
    } finally {
      await strict.close();
    }
  }, 60_000);

  it('rejects work after close', async () => {
    const p = createMatcherPool({ size: 1 });
    await p.close();
    await expect(p.enrol(await poster(1))).rejects.toThrow(/closed/);
  });
});
