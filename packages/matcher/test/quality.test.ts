import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GreyImage } from '../src/decode.ts';
import { enrol } from '../src/enrol.ts';
import { edgeSharpness, rate, RATING } from '../src/quality.ts';
import { plain, poster } from './fixtures.ts';

let gift: Buffer;
beforeAll(async () => {
  gift = await sharp(await poster(3, 320)).resize(640).png().toBuffer();
});

/** Logistic approximation of the normal distribution function. */
const cdf = (z: number) => 1 / (1 + Math.exp(-1.702 * z));

/** A w x h grey image of a vertical step edge from `lo` to `hi`, blurred by a Gaussian of `sigma` px. */
function step(w: number, h: number, lo: number, hi: number, sigma: number): GreyImage {
  const data = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    const t = sigma === 0 ? (x < w / 2 ? 0 : 1) : cdf((x + 0.5 - w / 2) / sigma);
    for (let y = 0; y < h; y++) data[y * w + x] = Math.round(lo + (hi - lo) * t);
  }
  return { width: w, height: h, data, originalWidth: w, originalHeight: h };
}

describe('edgeSharpness', () => {
  it('falls as an edge is blurred, whatever its contrast, and has no figure without edges', () => {
    const crisp = edgeSharpness(step(64, 32, 40, 220, 0))!;
    const slight = edgeSharpness(step(64, 32, 40, 220, 1))!;
    const soft = edgeSharpness(step(64, 32, 40, 220, 3))!;
    const softDim = edgeSharpness(step(64, 32, 100, 180, 3))!;
    expect(slight).toBeLessThan(crisp / 2);
    expect(soft).toBeLessThan(slight / 2);
    expect(soft).toBeLessThan(RATING.reasonBlurred);
    expect(slight).toBeGreaterThan(RATING.reasonBlurred);
    expect(Math.abs(soft - softDim)).toBeLessThan(0.2 * soft);
    expect(edgeSharpness(step(64, 32, 90, 90, 1))).toBeUndefined();
  });
});

describe('rating at enrolment', () => {
  it('rates a detailed photo 4-5 with no reasons, recognisable', async () => {
    const { quality } = await enrol(gift);
    expect(quality.rating).toBeGreaterThanOrEqual(4);
    expect(quality.reasons).toEqual([]);
    expect(quality.recognisable).toBe(true);
  });

  it('rates a plain photo 1, says plain, keeps the old message', async () => {
    const { quality } = await enrol(await plain(400, 300));
    expect(quality).toMatchObject({ rating: 1, reasons: ['plain'], recognisable: false });
    expect(quality.message).toMatch(/too little detail/);
  });

  it('names a blurred photo blurred', async () => {
    const { quality } = await enrol(await sharp(gift).blur(5).png().toBuffer());
    expect(quality.reasons[0]).toBe('blurred');
  });

  it('names a gift small in the frame small, and rates it low', async () => {
    const small = await sharp(gift).resize(110).toBuffer();
    const scene = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#b9b2a6' } })
      .composite([{ input: small, left: 265, top: 265 }])
      .png()
      .toBuffer();
    const { quality } = await enrol(scene);
    expect(quality.reasons).toContain('small');
    expect(quality.rating).toBeLessThanOrEqual(2);
  });

  it('names a tiled pattern repetitive, and rates it 1', async () => {
    const tile = await sharp(gift).extract({ left: 200, top: 200, width: 120, height: 120 }).toBuffer();
    const tiles = Array.from({ length: 25 }, (_, i) => ({ input: tile, left: (i % 5) * 120, top: Math.floor(i / 5) * 120 }));
    const paper = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#000' } }).composite(tiles).png().toBuffer();
    const { quality } = await enrol(paper);
    expect(quality.reasons).toContain('repetitive');
    expect(quality.rating).toBe(1);
  });

  it('recognisable is exactly rating >= 3, and a low rating always says why', () => {
    for (let k = 0; k <= 800; k += 50) {
      for (const twins of [0, 0.3, 0.6, 0.9]) {
        const q = rate({ keypoints: k, sharpness: 1, extent: 0.3, twins });
        expect(q.recognisable).toBe(q.rating >= 3);
        expect(q.rating).toBeGreaterThanOrEqual(1);
        expect(q.rating).toBeLessThanOrEqual(5);
        if (q.rating <= 2) expect(q.reasons.length).toBeGreaterThan(0);
      }
    }
    expect(rate({ keypoints: RATING.fullDetail, sharpness: 1, extent: 0.3, twins: 0 }).rating).toBe(5);
  });
});
