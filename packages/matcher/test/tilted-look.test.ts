import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCv } from '../src/cv.ts';
import { browserCompress } from '../src/decode.ts';
import { CONFIG } from '../src/config.ts';
import { compare, match } from '../src/engine.ts';
import { extractReference } from '../src/enrol.ts';
import { extractQuery } from '../src/staged.ts';
import { serialise, upTo } from '../src/features.ts';
import { enrol } from '../src/index.ts';
import { poster } from './fixtures.ts';

/** The tilted look (decision 053), on synthetic gifts drawn with SVG, photographed steeply and upside down. */
const saved = { ...CONFIG };
afterEach(() => Object.assign(CONFIG, saved));

/**
 * Poster `seed` (260 px) tilted `tilt` degrees about the axis at `axis` degrees and turned upside down, seen through
 * a pinhole camera (focal length 1.2 x the frame's width) on a darker poster in a 600 x 450 frame, as the browser
 * sends it.
 */
async function steep(seed: number, tilt: number, axis: number, side = 260): Promise<Buffer> {
  const cv = await loadCv();
  const g = await sharp(await poster(seed)).resize(side, side).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const W = 600, H = 450, f = 1.2 * W, t = (tilt * Math.PI) / 180, phi = (axis * Math.PI) / 180;
  const corners = [[0, 0], [side, 0], [side, side], [0, side]].flatMap(([x, y]) => {
    // upside down: the poster's top-left corner goes to the bottom right
    let X = side / 2 - x!, Y = side / 2 - y!;
    const a = X * Math.cos(-phi) - Y * Math.sin(-phi), b = X * Math.sin(-phi) + Y * Math.cos(-phi);
    const b2 = b * Math.cos(t), Z = b * Math.sin(t);
    X = a * Math.cos(phi) - b2 * Math.sin(phi);
    Y = a * Math.sin(phi) + b2 * Math.cos(phi);
    return [W / 2 + (f * X) / (f + Z), H / 2 + (f * Y) / (f + Z)];
  });
  const src = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, side, 0, side, side, 0, side]);
  const dst = cv.matFromArray(4, 1, cv.CV_32FC2, corners);
  const M = cv.getPerspectiveTransform(src, dst);
  const img = new cv.Mat(side, side, cv.CV_8UC4);
  const out = new cv.Mat();
  try {
    img.data.set(g.data);
    cv.warpPerspective(img, out, M, new cv.Size(W, H), cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
    const warped = await sharp(Buffer.from(out.data), { raw: { width: W, height: H, channels: 4 } }).png().toBuffer();
    const table = await sharp(await poster(7, 600)).resize(W, H, { fit: 'cover' }).modulate({ brightness: 0.6 }).png().toBuffer();
    return browserCompress(await sharp(table).composite([{ input: warped }]).jpeg({ quality: 90 }).toBuffer());
  } finally {
    [src, dst, M, img, out].forEach((m) => m.delete());
  }
}

let blob31: Uint8Array, scene31: Buffer;
beforeAll(async () => {
  blob31 = (await enrol(await poster(31))).reference;
  // 65 degrees about the vertical axis: squeezed to less than half its width, and upside down
  scene31 = await steep(31, 65, 90);
});

describe('the tilted look (decision 053)', () => {
  it('recognises a gift tilted 65 degrees and upside down that every look before it misses, over its own bar', async () => {
    CONFIG.tiltLook = 0;
    const before = await match(scene31, [[blob31]]);
    expect(before.matched).toBe(false);
    expect(before.inliers).toBeLessThan(CONFIG.minInliers);
    CONFIG.tiltLook = saved.tiltLook;
    const after = await match(scene31, [[blob31]]);
    expect(after).toMatchObject({ matched: true, bestIndex: 0 });
    expect(after.inliers).toBeGreaterThanOrEqual(CONFIG.tiltLookBar);
    // 260 x 260 px squeezed to ~45% of its width in a 600 x 450 frame: about a tenth of it
    expect(after.coverage).toBeGreaterThan(0.06);
    expect(after.coverage).toBeLessThan(0.16);
  });

  it('decides nothing under its own bar', async () => {
    CONFIG.tiltLookBar = 1000;
    expect(await match(scene31, [[blob31]])).toMatchObject({ matched: false });
  });

  it('picks the right one of several gifts, and finds no other poster in the frame', async () => {
    const others = await Promise.all([131, 47, 88].map(async (s) => (await enrol(await poster(s))).reference));
    expect(await match(scene31, [[others[0]!], [others[1]!], [blob31], [others[2]!]])).toMatchObject({ matched: true, bestIndex: 2 });
    const none = await match(scene31, others.map((o) => [o]));
    expect(none.matched).toBe(false);
    expect(none.inliers).toBeLessThan(CONFIG.minInliers);
  });

  it('a reference enrolled before it (no tilted views) still matches as before, without the look', async () => {
    const f = await extractReference(await poster(31));
    const old = serialise(upTo(f, 3));
    expect(old.byteLength).toBeLessThan(blob31.byteLength);
    expect(await match(scene31, [[old]])).toMatchObject({ matched: false });
    // the same scene only 40 degrees steep: the first look's, with or without the views
    const mild = await steep(31, 40, 90);
    const a = await match(mild, [[old]]), b = await match(mild, [[blob31]]);
    expect(a.matched).toBe(true);
    expect(b.inliers).toBe(a.inliers);
  });

  it('among several gifts, the shortlist and the looks before it decide as they did without the tilted views', async () => {
    const seeds = [131, 47, 31, 88];
    const refs = await Promise.all(seeds.map(async (s) => extractReference(await poster(s))));
    const withViews = refs.map((f) => [serialise(f)]), without = refs.map((f) => [serialise(upTo(f, 3))]);
    for (const tilt of [0, 40]) {
      const photo = await steep(31, tilt, 30);
      const a = await match(photo, withViews), b = await match(photo, without);
      expect(a).toMatchObject({ matched: true, bestIndex: 2 });
      expect({ ...a, ms: 0 }).toEqual({ ...b, ms: 0 });
    }
  });

  it('compare() reports it apart from the evidence it decides on', async () => {
    const q = await extractQuery(scene31);
    const ref = await extractReference(await poster(31));
    const e = compare(q, ref);
    expect(e.tiltLook).toBeGreaterThanOrEqual(CONFIG.tiltLookBar);
    expect(e.inliers).toBeLessThan(CONFIG.minInliers);
    CONFIG.tiltLook = 0;
    expect(compare(q, ref).tiltLook).toBeUndefined();
  });
});
