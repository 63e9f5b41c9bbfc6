import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, glareOnGift } from '../src/cli/hardcase-gen.ts';
import { loadCv, type CV } from '../src/cv.ts';
import { poster } from './fixtures.ts';

/**
 * The hard-case generator's glare (decision 054): in a phone photo where the gift is a fraction of the frame, the
 * reflection covers the asked share of the gift's own surface, found through its reference, not of the photo.
 */
const dir = mkdtempSync(join(tmpdir(), 'giftlens-glare-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the gift: a 240 px poster at (420, 260) in an 1000 x 750 photo of a grey table
const GIFT = { left: 420, top: 260, side: 240 };
const W = 1000, H = 750;
// the same scene twice as large (past the 1024 px the reference is found at), and that one stored on its side with
// EXIF orientation 6 (a phone held upright): both are seen upright, 2000 x 1500
const BIG = { left: 840, top: 520, side: 480 };
const BW = 2000, BH = 1500;
let cv: CV;
let reference: string, photo: string, stranger: string, big: string, sideways: string;

beforeAll(async () => {
  cv = await loadCv();
  reference = join(dir, 'reference.png');
  photo = join(dir, 'photo.jpg');
  stranger = join(dir, 'stranger.png');
  writeFileSync(reference, await poster(7, 480));
  writeFileSync(stranger, await poster(99, 480));
  const gift = await sharp(await poster(7, 480)).resize(GIFT.side, GIFT.side).png().toBuffer();
  await sharp({ create: { width: W, height: H, channels: 3, background: '#8a8070' } })
    .composite([{ input: gift, left: GIFT.left, top: GIFT.top }])
    .jpeg({ quality: 90 })
    .toFile(photo);
  big = join(dir, 'big.jpg');
  sideways = join(dir, 'sideways.jpg');
  const bigGift = await sharp(await poster(7, 480)).resize(BIG.side, BIG.side).png().toBuffer();
  const upright = await sharp({ create: { width: BW, height: BH, channels: 3, background: '#8a8070' } })
    .composite([{ input: bigGift, left: BIG.left, top: BIG.top }])
    .png()
    .toBuffer();
  await sharp(upright).jpeg({ quality: 90 }).toFile(big);
  // stored turned a quarter to the left; orientation 6 says "turn it a quarter to the right to show it"
  await sharp(upright).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toFile(sideways);
});

/** Pixels of the layer at least half opaque: how many in all, and how many on the gift. */
async function opaque(layer: Buffer, gift = GIFT, w = W, h = H): Promise<{ all: number; onGift: number }> {
  const { data, info } = await sharp(layer).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([w, h]);
  let all = 0, onGift = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (data[(y * w + x) * 4 + 3]! < 128) continue;
      all++;
      if (x >= gift.left && x < gift.left + gift.side && y >= gift.top && y < gift.top + gift.side) onGift++;
    }
  }
  return { all, onGift };
}

describe('glare on the gift (hard-case generator)', () => {
  it('covers about a third of the gift in a phone photo, and nothing around it', async () => {
    for (const seed of [1, 2, 3]) {
      const { layer, on } = await glareOnGift(context(cv, seed, []), { path: photo, gift: 'cover:t', reference }, 0.33);
      expect(on).toBe('the gift');
      const { all, onGift } = await opaque(layer);
      // the old placement (a third of the photo) would have covered 250,000 px, four times the whole gift
      expect(onGift / all).toBeGreaterThan(0.97);
      const share = onGift / (GIFT.side * GIFT.side);
      expect(share).toBeGreaterThan(0.18); // clipped where the ellipse reaches past the cover's edge
      expect(share).toBeLessThan(0.42);
    }
  });

  it('lands on the gift in a photo larger than the matching size, and in one stored on its side (EXIF 6)', async () => {
    for (const path of [big, sideways]) {
      const { layer, on } = await glareOnGift(context(cv, 4, []), { path, gift: 'cover:t', reference }, 0.33);
      expect(on).toBe('the gift');
      const { all, onGift } = await opaque(layer, BIG, BW, BH);
      expect(onGift / all, path).toBeGreaterThan(0.97);
      const share = onGift / (BIG.side * BIG.side);
      expect(share).toBeGreaterThan(0.18);
      expect(share).toBeLessThan(0.42);
    }
  });

  it('says so and covers a share of the photo where the reference is not found in it', async () => {
    const { layer, on } = await glareOnGift(context(cv, 1, []), { path: photo, gift: 'cover:t', reference: stranger }, 0.33);
    expect(on).toBe('the photo (gift not placed)');
    const { all } = await opaque(layer);
    expect(all / (W * H)).toBeGreaterThan(0.18);
  });

  it('draws on the whole picture when the source is the reference itself', async () => {
    const { layer, on } = await glareOnGift(context(cv, 1, []), { path: reference, gift: 'cover:t', reference }, 0.33);
    expect(on).toBe('the gift');
    const m = await sharp(layer).metadata();
    expect([m.width, m.height]).toEqual([480, 480]);
  });
});
