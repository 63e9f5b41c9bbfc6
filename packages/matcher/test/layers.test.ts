import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { assembleWat } from '../scripts/assemble.mjs';
import { decodeGrey, decodeLayers } from '../src/decode.ts';
import { CONFIG } from '../src/config.ts';
import { extractReference } from '../src/enrol.ts';
import { DESC_BYTES, deserialise, layer, serialise, type Features } from '../src/features.ts';
import { matchLayers } from '../src/hamming.ts';
import { enrol, match } from '../src/index.ts';
import { photoOf, poster } from './fixtures.ts';

/** Random descriptors; positions far apart so the same-spot rule never applies unless a test wants it. */
function randomFeatures(layerSizes: number[], seed: number): Features {
  let s = seed;
  const next = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
  const count = layerSizes.reduce((a, b) => a + b, 0);
  const layers = [0];
  for (const n of layerSizes) layers.push(layers.at(-1)! + n);
  return {
    width: 4000,
    height: 4000,
    count,
    x: Float32Array.from({ length: count }, (_, i) => (i % 60) * 60),
    y: Float32Array.from({ length: count }, (_, i) => Math.floor(i / 60) * 60),
    size: new Float32Array(count).fill(31),
    angle: new Float32Array(count),
    desc: Uint8Array.from({ length: count * DESC_BYTES }, next),
    layers,
  };
}

/** bits set in each byte value, counted one bit at a time */
const BITS = Uint8Array.from({ length: 256 }, (_, v) => {
  let n = 0;
  for (; v; v >>= 1) n += v & 1;
  return n;
});

function hamming(a: Features, i: number, b: Features, j: number): number {
  let d = 0;
  for (let k = 0; k < DESC_BYTES; k++) d += BITS[a.desc[i * DESC_BYTES + k]! ^ b.desc[j * DESC_BYTES + k]!]!;
  return d;
}

/**
 * The rule written plainly: nearest in the same layer, ratio test against the second nearest — or the third when
 * the second lies within sameSpot px of the first in the reference (ties: lower index first, like the kernel).
 */
function naiveMatches(q: Features, r: Features, ratio: number, sameSpot = 0): string[] {
  const out: string[] = [];
  for (let l = 0; l < Math.min(q.layers.length, r.layers.length) - 1; l++) {
    for (let i = q.layers[l]!; i < q.layers[l + 1]!; i++) {
      const ds = [];
      for (let j = r.layers[l]!; j < r.layers[l + 1]!; j++) ds.push({ j, d: hamming(q, i, r, j) });
      ds.sort((a, b) => a.d - b.d || a.j - b.j);
      const [first, second, third] = ds;
      if (!first) continue;
      let rival = second?.d ?? 1 << 20;
      if (second && sameSpot > 0 && Math.hypot(r.x[first.j]! - r.x[second.j]!, r.y[first.j]! - r.y[second.j]!) <= sameSpot) {
        rival = third?.d ?? 1 << 20;
      }
      if (first.d < ratio * rival) out.push(`${i}-${first.j}-${first.d}`);
    }
  }
  return out;
}

const pairs = (c: ReturnType<typeof matchLayers>): string[] =>
  Array.from({ length: c.count }, (_, k) => `${c.q[k]}-${c.r[k]}-${c.dist[k]}`);

/** A copy of query descriptor i with the given bits flipped. */
function nearCopy(q: Features, i: number, bits: number[]): Uint8Array {
  const d = q.desc.slice(i * DESC_BYTES, (i + 1) * DESC_BYTES);
  for (const b of bits) d[b >> 3]! ^= 1 << (b & 7);
  return d;
}

describe('Hamming matching (WebAssembly SIMD kernel)', () => {
  it('finds the same nearest neighbours and distances as a plain bit count, layer by layer', () => {
    const q = randomFeatures([150, 40, 33], 7);
    const r = randomFeatures([170, 29, 51], 8);
    // plant a few near-copies so some pass the ratio test
    for (const [i, j] of [[3, 10], [160, 180], [200, 220]] as const) {
      r.desc.set(q.desc.subarray(i * DESC_BYTES, (i + 1) * DESC_BYTES), j * DESC_BYTES);
      r.desc[j * DESC_BYTES + 5]! ^= 0x11;
    }
    for (const ratio of [0.85, 1.01]) expect(pairs(matchLayers(q, r, ratio))).toEqual(naiveMatches(q, r, ratio));
    expect(matchLayers(q, r, 0.85).count).toBeGreaterThanOrEqual(3);
  });

  it("applies the same-spot rule with the second neighbour's position and the third distance", () => {
    const q = randomFeatures([20], 21);
    const r = randomFeatures([200], 22);
    // two equally good candidates for query 0: a rival 4 px apart is the same spot (the third neighbour decides),
    // one 40 px apart is a real rival (the ratio test fails)
    r.desc.set(nearCopy(q, 0, [1, 2, 3]), 10 * DESC_BYTES);
    r.desc.set(nearCopy(q, 0, [9, 10, 11]), 11 * DESC_BYTES);
    [r.x[10], r.y[10], r.x[11], r.y[11]] = [100, 100, 104, 100];
    expect(pairs(matchLayers(q, r, 0.85, 256, 10)).filter((p) => p.startsWith('0-'))).toEqual(['0-10-3']);
    r.x[11] = 140;
    expect(pairs(matchLayers(q, r, 0.85, 256, 10)).filter((p) => p.startsWith('0-'))).toEqual([]);
    expect(pairs(matchLayers(q, r, 0.85, 256, 0)).filter((p) => p.startsWith('0-'))).toEqual([]);
  });

  it('agrees with the plain rule on clustered keypoints, where the same-spot rule often applies', () => {
    const q = randomFeatures([120, 30], 31);
    const r = randomFeatures([300, 40], 32);
    for (let j = 0; j < r.count; j++) {
      r.x[j] = (j % 7) * 5; // many neighbours within 10 px of each other
      r.y[j] = Math.floor(j / 7) % 5;
    }
    for (let i = 0; i < 40; i++) r.desc.set(nearCopy(q, i, [i % 256, (i * 7) % 256]), (i * 3) * DESC_BYTES);
    for (const ratio of [0.7, 0.85]) expect(pairs(matchLayers(q, r, ratio, 256, 10))).toEqual(naiveMatches(q, r, ratio, 10));
  });

  it('compares only the layers both sides have (a grey-only reference against a query with colour layers)', () => {
    const q = randomFeatures([50, 20, 20], 1);
    const r = randomFeatures([60], 2);
    const c = matchLayers(q, r, 1.01);
    expect(c.count).toBe(50);
    expect(Math.max(...c.q.subarray(0, c.count))).toBeLessThan(50);
  });

  it('grows its memory for large feature sets and still answers like the plain rule', () => {
    // 1700 + 1750 descriptors and the results: about 180 KB, where the kernel starts with one 64-KB page
    const q = randomFeatures([1500, 200], 3);
    const r = randomFeatures([1600, 150], 4);
    for (let i = 0; i < 1700; i += 50) r.desc.set(nearCopy(q, i, [i % 256]), i * DESC_BYTES);
    expect(pairs(matchLayers(q, r, 0.9))).toEqual(naiveMatches(q, r, 0.9));
  });

  it('the committed hamming.wasm is the assembled hamming.wat', async () => {
    const wat = readFileSync(new URL('../src/hamming.wat', import.meta.url), 'utf8');
    const committed = readFileSync(new URL('../src/hamming.wasm', import.meta.url));
    expect(Buffer.from(await assembleWat(wat)).equals(committed)).toBe(true);
  });
});

describe('feature layers', () => {
  it('decodes grey as libvips does (within one level) and two half-size colour channels', async () => {
    const img = await poster(11, 400);
    const grey = await decodeGrey(img, 640);
    const { grey: g, chroma } = await decodeLayers(img, 640);
    expect([g.width, g.height]).toEqual([grey.width, grey.height]);
    let worst = 0;
    for (let i = 0; i < g.data.length; i++) worst = Math.max(worst, Math.abs(g.data[i]! - grey.data[i]!));
    expect(worst).toBeLessThanOrEqual(1);
    for (const c of chroma) expect([c.width, c.height]).toEqual([g.width >> 1, g.height >> 1]);
  });

  it('puts a neutral grey at 128 in both colour channels and a pure red above it in red-green', async () => {
    const red = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const grey = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#808080' } }).png().toBuffer();
    expect((await decodeLayers(grey, 640)).chroma.map((c) => c.data[0])).toEqual([128, 128]);
    const [rg, yb] = (await decodeLayers(red, 640)).chroma;
    expect(rg.data[0]).toBe(255);
    expect(yb.data[0]).toBeGreaterThan(128);
  });

  it('a reference holds a grey layer, two colour layers and its tilted views, all in the grey image frame, and round-trips them', async () => {
    const f = await extractReference(await poster(12, 500));
    expect(f.layers).toHaveLength(5);
    // the tilted views (decision 053): CONFIG.tiltDirections views, their keypoints mapped back into the reference
    const tilted = layer(f, 3);
    expect(tilted.count).toBeGreaterThan(CONFIG.tiltFeatures);
    expect(tilted.count).toBeLessThanOrEqual(CONFIG.tiltDirections * CONFIG.tiltFeatures);
    expect(Math.min(...tilted.x)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...tilted.x)).toBeLessThanOrEqual(f.width + 1);
    expect(Math.max(...tilted.y)).toBeGreaterThan(f.height * 0.6);
    expect(Math.max(...tilted.y)).toBeLessThanOrEqual(f.height + 1);
    expect(f.layers[1]! - f.layers[0]!).toBeGreaterThan(200);
    const colour = layer(f, 1);
    expect(Math.max(...colour.x)).toBeGreaterThan(f.width * 0.6);
    const g = deserialise(serialise(f));
    expect(g.layers).toEqual(f.layers);
  });

  it('still reads and matches a grey-only reference stored before colour layers (format GLF1)', async () => {
    const gift = await poster(13);
    const f = layer(await extractReference(gift), 0);
    const v2 = serialise(f);
    // GLF1: same header without the layer table, magic "GLF1"
    const v1 = new Uint8Array(v2.byteLength - 2);
    v1.set(v2.subarray(0, 12));
    v1.set(v2.subarray(14), 12);
    new DataView(v1.buffer).setUint32(0, 0x31464c47, true);
    v1[11] = 0;
    const back = deserialise(v1);
    expect(back.layers).toEqual([0, f.count]);
    expect((await match(await photoOf(gift, 15, 0.75), [[v1]])).matched).toBe(true);
  });

  it('maps colour keypoints into the grey frame at the block centre, inside the image at odd sizes', async () => {
    const f = await extractReference(await poster(15, 301)); // 301 x 301: colour channels 150 x 150
    for (const l of [1, 2]) {
      const c = layer(f, l);
      expect(c.count).toBeGreaterThan(20);
      expect(Math.max(...c.x, ...c.y)).toBeLessThan(301);
      // every position is 2k + 0.5 for a (sub-pixel) colour-channel coordinate k: no stretch by 301/150
      expect(Math.max(...c.x)).toBeLessThanOrEqual(2 * 149 + 0.5 + 1);
    }
  });

  it('refuses a strip too narrow to search once fitted (64 x 20000 px) as image_too_small, repeatedly', async () => {
    const strip = await sharp({ create: { width: 64, height: 20000, channels: 3, background: '#8a6' } }).jpeg().toBuffer();
    for (let i = 0; i < 20; i++) await expect(enrol(strip)).rejects.toMatchObject({ code: 'image_too_small' });
    await expect(match(strip, [[]])).rejects.toMatchObject({ code: 'image_too_small' });
    const gift = await poster(16);
    const ref = (await enrol(gift)).reference;
    expect((await match(await photoOf(gift, 10, 0.8), [[ref]])).matched).toBe(true);
  });

  it('rejects a layer table that does not add up', async () => {
    const blob = serialise(await extractReference(await poster(14)));
    new DataView(blob.buffer).setUint16(12, 1, true);
    expect(() => deserialise(blob)).toThrow(/truncated or corrupt/);
  });
});
