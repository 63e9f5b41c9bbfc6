import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { enrol, match, MatcherError, referencesMatch } from '../src/index.ts';
import { deserialise, serialise } from '../src/features.ts';
import { extractReference } from '../src/enrol.ts';
import { photoOf, plain, poster } from './fixtures.ts';

let giftA: Buffer, giftB: Buffer, photoA: Buffer, photoB: Buffer;
let refA: Uint8Array, refB: Uint8Array;

beforeAll(async () => {
  [giftA, giftB] = await Promise.all([poster(1), poster(2)]);
  [photoA, photoB] = await Promise.all([photoOf(giftA, 20, 0.7), photoOf(giftB, -10, 0.8)]);
  [refA, refB] = (await Promise.all([enrol(giftA), enrol(giftB)])).map((r) => r.reference) as [Uint8Array, Uint8Array];
});

describe('enrol', () => {
  it('returns a compact reference and a good quality report for a detailed picture', async () => {
    const r = await enrol(giftA);
    expect(r.reference).toBeInstanceOf(Uint8Array);
    // grey, two colour layers and the tilted views (decision 053), 40 bytes a keypoint: ~92 KB for a detailed picture;
    // and its appearance for the whole-gift check (decision 056): a 128 px grey thumbnail and 64 px RGB, 28 KB more
    expect(r.reference.byteLength).toBeLessThan(124 * 1024);
    expect(r.quality.recognisable).toBe(true);
    expect(r.quality.keypoints).toBeGreaterThan(200);
    expect(r.quality.score).toBeGreaterThan(0.5);
    expect(r.quality.message).toBeUndefined();
  });

  it('flags a plain photo as too little detail', async () => {
    const r = await enrol(await plain(300, 200));
    expect(r.quality.recognisable).toBe(false);
    expect(r.quality.score).toBeLessThan(0.5);
    expect(r.quality.message).toBe(
      'This photo has too little detail to be recognised reliably — add a photo of the box, label or tag',
    );
  });

  it('applies EXIF rotation', async () => {
    // the same pixels stored sideways with an EXIF orientation tag must give the same features
    const sideways = await sharp(giftA).rotate(90).withMetadata({ orientation: 8 }).jpeg({ quality: 95 }).toBuffer();
    const upright = await extractReference(await sharp(giftA).jpeg({ quality: 95 }).toBuffer());
    const fixed = await extractReference(sideways);
    expect([fixed.width, fixed.height]).toEqual([upright.width, upright.height]);
    const d = await match(photoA, [[(await enrol(sideways)).reference]]);
    expect(d.matched).toBe(true);
  });
});

describe('match', () => {
  it('matches a photo of the gift', async () => {
    const d = await match(photoA, [[refA]]);
    expect(d).toMatchObject({ matched: true, bestIndex: 0 });
    expect(d.score).toBeGreaterThanOrEqual(0.5);
    expect(d.score).toBeLessThanOrEqual(1);
    expect(d.inliers).toBeGreaterThanOrEqual(15);
    expect(d.ms).toBeGreaterThanOrEqual(0);
  });

  it('matches a photo taken in dim light (contrast is stretched before feature detection)', async () => {
    const dim = await sharp(photoA).linear(0.15, 0).jpeg({ quality: 80 }).toBuffer();
    expect((await match(dim, [[refA]])).matched).toBe(true);
  });

  it('does not match a photo of another gift', async () => {
    const d = await match(photoB, [[refA]]);
    expect(d.matched).toBe(false);
    expect(d.score).toBeLessThan(0.5);
  });

  it('picks the right gift among several, with any of its references counting', async () => {
    const d = await match(photoB, [[refA], [refA, refB], [refA]]);
    expect(d).toMatchObject({ matched: true, bestIndex: 1 });
  });

  it('uses the shortlist pass with many candidates and still finds the gift', async () => {
    const others = await Promise.all([3, 4, 5, 6].map(async (s) => (await enrol(await poster(s, 200))).reference));
    const d = await match(photoA, [...others.map((r) => [r]), [refA]]);
    expect(d).toMatchObject({ matched: true, bestIndex: 4 });
  });

  it('returns no match and bestIndex -1 without candidates', async () => {
    expect(await match(photoA, [])).toMatchObject({ matched: false, bestIndex: -1, score: 0 });
  });
});

describe('errors', () => {
  const code = async (p: Promise<unknown>): Promise<string> =>
    p.then(
      () => 'resolved',
      (e: unknown) => (e instanceof MatcherError ? e.code : `other: ${String(e)}`),
    );

  it('rejects unreadable images', async () => {
    expect(await code(enrol(Buffer.from('definitely not an image')))).toBe('unreadable_image');
    expect(await code(enrol(new Uint8Array(0)))).toBe('unreadable_image');
    expect(await code(match(giftA.subarray(0, 200), [[refA]]))).toBe('unreadable_image');
  });

  it('rejects tiny images', async () => {
    expect(await code(enrol(await plain(40, 300)))).toBe('image_too_small');
    expect(await code(match(await plain(30, 30), [[refA]]))).toBe('image_too_small');
  });

  it('rejects invalid references', async () => {
    expect(await code(match(photoA, [[new Uint8Array([1, 2, 3])]]))).toBe('invalid_reference');
    expect(await code(match(photoA, [[refA.subarray(0, refA.byteLength - 7)]]))).toBe('invalid_reference');
  });
});

describe('serialisation', () => {
  it('round-trips features', async () => {
    const f = await extractReference(giftA);
    const g = deserialise(serialise(f));
    expect(g.count).toBe(f.count);
    expect([g.width, g.height]).toEqual([f.width, f.height]);
    expect(Buffer.from(g.desc).equals(Buffer.from(f.desc))).toBe(true);
    for (let i = 0; i < f.count; i += 37) {
      expect(Math.abs(g.x[i]! - f.x[i]!)).toBeLessThanOrEqual(1 / 16);
      expect(Math.abs(g.y[i]! - f.y[i]!)).toBeLessThanOrEqual(1 / 16);
      expect(Math.abs(g.size[i]! - f.size[i]!)).toBeLessThanOrEqual(1 / 32);
      const da = Math.abs(g.angle[i]! - f.angle[i]!);
      expect(Math.min(da, 360 - da)).toBeLessThan(0.01);
    }
    expect(Buffer.from(serialise(g)).equals(Buffer.from(serialise(f)))).toBe(true);
  });

  it('a stored reference survives a copy (as from a DB blob)', async () => {
    const copy = Uint8Array.from(Buffer.from(Buffer.from(refA).toString('base64'), 'base64'));
    expect((await match(photoA, [[copy]])).matched).toBe(true);
  });
});

describe('referencesMatch (two gifts that a scan cannot tell apart)', () => {
  it('finds two photos of the same box, and not two different boxes', async () => {
    // the same box photographed again: another angle and scale, enrolled as a reference of its own
    const again = (await enrol(await photoOf(giftA, 15, 0.8))).reference;
    const same = referencesMatch(refA, again);
    expect(same.matched).toBe(true);
    expect(same.inliers).toBeGreaterThanOrEqual(22);
    const different = referencesMatch(refA, refB);
    expect(different.matched).toBe(false);
    expect(different.inliers).toBeLessThan(22);
  });

  it('refuses a blob that is not a reference', () => {
    expect(() => referencesMatch(refA, new Uint8Array([1, 2, 3]))).toThrow(MatcherError);
  });
});
