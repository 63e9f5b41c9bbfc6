import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserCompress } from '../src/decode.ts';
import { CONFIG, MOVE_CLOSER_BELOW } from '../src/config.ts';
import { compare, match } from '../src/engine.ts';
import { extractReference } from '../src/enrol.ts';
import { secondLookAt } from '../src/looks.ts';
import { extractQuery } from '../src/staged.ts';
import { layer, type Features } from '../src/features.ts';
import { enrol } from '../src/index.ts';
import { photoOf, poster } from './fixtures.ts';

/** The second look and the gift's coverage (decision 047), on synthetic gifts drawn with SVG. */
let gift: Buffer, ref: Features, refBlob: Uint8Array, photo: Buffer;
const saved = { ...CONFIG };
afterEach(() => Object.assign(CONFIG, saved));

beforeAll(async () => {
  gift = await poster(29);
  ref = await extractReference(gift);
  refBlob = (await enrol(gift)).reference;
  photo = await browserCompress(await photoOf(gift, 25, 0.7));
});

/** The gift at `side` px in a 600 x 450 frame of other, busier posters (a cluttered table). */
async function smallInClutter(side: number): Promise<Buffer> {
  const table = await sharp(await poster(7, 600)).resize(600, 450, { fit: 'cover' }).png().toBuffer();
  const g = await sharp(gift).resize(side, side).png().toBuffer();
  return browserCompress(await sharp(table).composite([{ input: g, left: 380, top: 60 }]).jpeg({ quality: 90 }).toBuffer());
}

describe('the second look', () => {
  it('looks where the model puts the gift: warped upright into the reference frame, it finds the gift again', async () => {
    const q = await extractQuery(photo);
    CONFIG.secondLook = 0;
    const first = compare(q, ref);
    expect(first.map).toHaveLength(9);
    expect(first.inliers).toBeGreaterThanOrEqual(CONFIG.minInliers);
    const again = secondLookAt(q.image!, layer(ref, 0), first.map!);
    expect(again.inliers).toBeGreaterThanOrEqual(CONFIG.minInliers);
  });

  it('off (0), compare() is the evidence before decision 047; on, its evidence is never lower and reports both looks', async () => {
    const q = await extractQuery(await smallInClutter(110));
    CONFIG.secondLook = 0;
    const before = compare(q, ref);
    expect(before.secondLook).toBeUndefined();
    CONFIG.secondLook = 1;
    const after = compare(q, ref);
    expect(after.firstLook).toBe(before.inliers);
    if (before.inliers >= 1 && before.inliers < 40) expect(after.secondLook).toBeTypeOf('number');
    expect(after.inliers).toBeGreaterThanOrEqual(before.inliers);
  });

  it('match() reports how much of the frame the gift covers, under MOVE_CLOSER_BELOW for a small one', async () => {
    const small = await match(await smallInClutter(130), [[refBlob]]);
    expect(small.coverage).toBeDefined();
    expect(small.coverage!).toBeLessThan(MOVE_CLOSER_BELOW);
    expect(small.coverage!).toBeGreaterThan(0.03);
    const near = await match(photo, [[refBlob]]);
    expect(near.coverage!).toBeGreaterThan(MOVE_CLOSER_BELOW);
  });
});

describe('the zoomed look (decision 052)', () => {
  /**
   * A poster at `side` px in the same cluttered frame, where the scanner's guide asks for it (around the middle): under
   * ~180 px it is smaller than its reference's smallest level.
   */
  async function tinyInClutter(seed: number, side: number, at = { left: 250, top: 170 }): Promise<Buffer> {
    const table = await sharp(await poster(7, 600)).resize(600, 450, { fit: 'cover' }).png().toBuffer();
    const g = await sharp(await poster(seed)).resize(side, side).png().toBuffer();
    return browserCompress(await sharp(table).composite([{ input: g, ...at }]).jpeg({ quality: 90 }).toBuffer());
  }

  it('recognises a gift 75 px wide that the looks before it miss, with evidence over its own bar', async () => {
    const blob = (await enrol(await poster(31))).reference;
    const query = await tinyInClutter(31, 75);
    CONFIG.zoomLook = 0;
    const before = await match(query, [[blob]]);
    expect(before.matched).toBe(false);
    expect(before.inliers).toBeLessThan(CONFIG.minInliers);
    CONFIG.zoomLook = saved.zoomLook;
    const after = await match(query, [[blob]]);
    expect(after).toMatchObject({ matched: true, bestIndex: 0 });
    expect(after.inliers).toBeGreaterThanOrEqual(CONFIG.zoomLookBar);
  });

  it('decides nothing under its own bar, and says where the gift is when it does', async () => {
    const blob = (await enrol(await poster(31))).reference;
    const query = await tinyInClutter(31, 75);
    CONFIG.zoomLookBar = 1000;
    expect(await match(query, [[blob]])).toMatchObject({ matched: false });
    CONFIG.zoomLookBar = saved.zoomLookBar;
    const found = await match(query, [[blob]]);
    expect(found.matched).toBe(true);
    // the poster is 75 px of a 600 px frame: about 2% of its area
    expect(found.coverage).toBeGreaterThan(0.01);
    expect(found.coverage).toBeLessThan(0.04);
  });

  it('picks the right one of several gifts, and finds no other poster in the frame', async () => {
    const query = await tinyInClutter(31, 75);
    const others = await Promise.all([131, 47, 88].map(async (s) => (await enrol(await poster(s))).reference));
    const own = (await enrol(await poster(31))).reference;
    expect(await match(query, [[others[0]!], [others[1]!], [own], [others[2]!]])).toMatchObject({ matched: true, bestIndex: 2 });
    const none = await match(query, others.map((o) => [o]));
    expect(none.matched).toBe(false);
    expect(none.inliers).toBeLessThan(CONFIG.minInliers);
  });

  it('compare() reports the zoomed look apart from the evidence it decides on', async () => {
    const q = await extractQuery(await tinyInClutter(31, 75));
    const ref31 = await extractReference(await poster(31));
    const e = compare(q, ref31);
    expect(e.zoomLook).toBeGreaterThanOrEqual(CONFIG.zoomLookBar);
    expect(e.inliers).toBeLessThan(CONFIG.minInliers);
    CONFIG.zoomLook = 0;
    expect(compare(q, ref31).zoomLook).toBeUndefined();
  });
});
