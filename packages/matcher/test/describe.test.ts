import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assembleWat } from '../scripts/assemble.mjs';
import { loadCv } from '../src/cv.ts';
import { decodeStaged } from '../src/decode.ts';
import { blurRows, GAUSS_7, opencvDescriptors, opencvRegionBlur, orbModel, describe as orbDescribe } from '../src/describe.ts';
import { match } from '../src/engine.ts';
import { extractReference, enrol } from '../src/enrol.ts';
import { extractQuery } from '../src/staged.ts';
import { extractFeatures, extractSplit, orbLevelCounts, type ExtractOptions } from '../src/extract.ts';
import { withConfig } from '../src/cli/recipes.ts';
import { photoOf, poster } from './fixtures.ts';

const OPTS: ExtractOptions = { maxFeatures: 1000, fastThreshold: 20, nLevels: 4, scaleFactor: 1.2, grid: 0, oversample: 2 };

async function greyOf(seed: number, size: number, side = 540) {
  return (await decodeStaged(await photoOf(await poster(seed, size), 20, 1), side)).grey;
}

describe('ORB descriptors computed in WebAssembly (describe.ts, decision 033)', () => {
  it('reads the blur kernel and the sampling pattern from the loaded OpenCV and checks them against it', async () => {
    const cv = await loadCv();
    const m = orbModel(cv);
    expect(m).not.toBeNull();
    expect(m!.pattern).toHaveLength(1024);
    expect(Math.max(...m!.pattern.map(Math.abs))).toBeLessThanOrEqual(15);
    expect(m!.kernel[0]! + 2 * (m!.kernel[1]! + m!.kernel[2]! + m!.kernel[3]!)).toBeCloseTo(1, 6);
  });

  it('gives the bits of OpenCV detectAndCompute at every pyramid level, on photos of several sizes and shapes', async () => {
    const cv = await loadCv();
    const m = orbModel(cv)!;
    let levels = 0;
    for (const [seed, size, side] of [[3, 600, 540], [4, 420, 540], [5, 700, 640], [6, 300, 300]] as const) {
      const g = await greyOf(seed, size, side);
      for (const nLevels of [1, 4, 8]) {
        const theirs = opencvDescriptors(cv, g, 1000, nLevels, 1.2);
        expect(theirs.kp.count).toBeGreaterThan(100);
        levels = Math.max(levels, ...theirs.kp.octave);
        expect(Buffer.from(orbDescribe(cv, m, g, theirs.kp, 1.2)).equals(Buffer.from(theirs.desc))).toBe(true);
      }
    }
    expect(levels).toBeGreaterThanOrEqual(5);
  });

  it('extractFeatures gives identical features either way (keypoints, order and descriptors)', async () => {
    const cv = await loadCv();
    const g = await greyOf(8, 640);
    const ours = extractFeatures(cv, g, OPTS);
    const theirs = extractFeatures(cv, g, { ...OPTS, ownDescriptors: false });
    expect(ours.count).toBeGreaterThan(300);
    expect(ours).toEqual(theirs);
  });

  it('the blur is OpenCV GaussianBlur 7x7 sigma 2 of a region, also at rounding ties (a flat image of one level)', async () => {
    const cv = await loadCv();
    // 0..255 ramps and flat areas: sums that are exact integers or land on ties
    const w = 120, h = 90;
    const data = Uint8Array.from({ length: w * h }, (_, i) => ((i % w) * 7 + Math.floor(i / w) * 3) % 256);
    const theirs = opencvRegionBlur(cv, { width: w, height: h, data });
    const ours = blurRows({ width: w, height: h, data }, GAUSS_7, 0, h);
    for (let y = 3; y < h - 3; y++) for (let x = 3; x < w - 3; x++) expect(ours[y * w + x], `pixel ${x},${y}`).toBe(theirs[y * w + x]);
  });

  it('enrolled references and scans decide as with OpenCV descriptors', async () => {
    const ref = await poster(21, 600);
    const other = await poster(22, 600);
    const scan = await photoOf(ref, 12, 0.8);
    const mine = (await enrol(ref)).reference;
    const theirs = await withConfig({ ownDescriptors: false, decodeInOnePass: false }, async () => (await enrol(ref)).reference);
    expect(Buffer.from(mine).equals(Buffer.from(theirs))).toBe(true);
    const otherRef = (await enrol(other)).reference;
    const a = await match(scan, [[otherRef], [mine]]);
    const b = await withConfig({ ownDescriptors: false, decodeInOnePass: false }, () => match(scan, [[otherRef], [mine]]));
    expect({ ...a, ms: 0 }).toEqual({ ...b, ms: 0 });
    expect(a.matched).toBe(true);
    expect(a.bestIndex).toBe(1);
    expect(await extractQuery(scan)).toEqual(await withConfig({ ownDescriptors: false }, () => extractQuery(scan)));
    expect(await extractReference(other)).toEqual(await withConfig({ ownDescriptors: false }, () => extractReference(other)));
  });

  it('the first pass: the base level alone keeps the whole extraction\'s base-level keypoints, and the levels added later make the same features', async () => {
    const cv = await loadCv();
    expect(orbLevelCounts(1000, 1.2, 4)).toEqual([322, 268, 224, 186]);
    for (const [seed, size, side] of [[9, 640, 540], [10, 500, 405], [11, 700, 261]] as const) {
      const g = await greyOf(seed, size, side);
      const whole = extractFeatures(cv, g, OPTS);
      const split = extractSplit(cv, g, OPTS)!;
      const baseIdx = [...whole.size].flatMap((s, i) => (s === 31 ? [i] : []));
      expect(split.first.count).toBe(baseIdx.length);
      expect(Buffer.from(split.first.desc).equals(Buffer.from(baseIdx.flatMap((i) => [...whole.desc.subarray(i * 32, i * 32 + 32)])))).toBe(true);
      expect([...split.first.x]).toEqual(baseIdx.map((i) => whole.x[i]));
      expect(split.all()).toEqual(whole);
    }
    expect(extractSplit(cv, await greyOf(12, 400), { ...OPTS, grid: 4 })).toBeNull();
  });

  it('a scan decides the same with or without the first pass (a genuine photo and a photo of another poster)', async () => {
    const ref = (await enrol(await poster(31, 600))).reference;
    const other = (await enrol(await poster(32, 600))).reference;
    const decided: [boolean, number][] = [];
    for (const scan of [await photoOf(await poster(31, 600), 10, 0.9), await photoOf(await poster(33, 600), 10, 0.9)]) {
      const a = await match(scan, [[other], [ref]]);
      const b = await withConfig({ firstPass: false }, () => match(scan, [[other], [ref]]));
      expect([a.matched, a.matched ? a.bestIndex : -1]).toEqual([b.matched, b.matched ? b.bestIndex : -1]);
      decided.push([a.matched, a.bestIndex]);
    }
    expect(decided[0]).toEqual([true, 1]);
  });

  it('the committed orb.wasm is the assembled orb.wat', async () => {
    const wat = readFileSync(new URL('../src/orb.wat', import.meta.url), 'utf8');
    const committed = readFileSync(new URL('../src/orb.wasm', import.meta.url));
    expect(Buffer.from(await assembleWat(wat)).equals(committed)).toBe(true);
  });
});
