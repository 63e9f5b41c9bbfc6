import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG } from '../src/config.ts';
import { compare, match } from '../src/engine.ts';
import { extractReference, enrol } from '../src/enrol.ts';
import { extractQuery } from '../src/staged.ts';
import { layer, type Features } from '../src/features.ts';
import { photoOf, poster } from './fixtures.ts';

const shipped = { ...CONFIG };
let ref: Features, refBlob: Uint8Array, genuine: Features, other: Features, otherPhoto: Buffer, genuinePhoto: Buffer;

beforeAll(async () => {
  const gift = await poster(11);
  genuinePhoto = await photoOf(gift, 25, 0.55);
  otherPhoto = await photoOf(await poster(12), -5, 0.7);
  [ref, genuine, other] = await Promise.all([extractReference(gift), extractQuery(genuinePhoto), extractQuery(otherPhoto)]);
  refBlob = (await enrol(gift)).reference;
});

afterEach(() => {
  Object.assign(CONFIG, shipped);
});

describe('the colour gate (early exit after the grey layer)', () => {
  it('is on in the shipped engine', () => {
    expect(CONFIG.greyFirst).toBe(true);
    expect(CONFIG.colourGate).toBeGreaterThan(0);
    expect(CONFIG.colourGate).toBeLessThan(CONFIG.minInliers);
  });

  it('takes the grey evidence alone when grey finds fewer consistent points than the gate, else the better of grey and colour', () => {
    const grey = compare(layer(genuine, 0), layer(ref, 0));
    const pooled = compare(genuine, ref);
    CONFIG.colourGate = 0;
    const withColour = compare(genuine, ref);
    // the photo must be one where colour changes the count, or this test could not tell the two rules apart
    expect(withColour.inliers).toBeGreaterThan(grey.inliers);
    CONFIG.colourGate = grey.inliers + 1;
    expect(compare(genuine, ref).inliers).toBe(grey.inliers);
    CONFIG.colourGate = grey.inliers;
    expect(compare(genuine, ref).inliers).toBe(withColour.inliers);
    expect(pooled.inliers).toBe(grey.inliers >= shipped.colourGate ? withColour.inliers : grey.inliers);
  });

  it('an impostor under the gate is decided on grey; the decision is the same as with colour tried', async () => {
    const grey = compare(layer(other, 0), layer(ref, 0));
    expect(grey.inliers).toBeLessThan(CONFIG.colourGate);
    // the evidence is grey's (compare() may report the zoomed and tilted looks beside it, which match() judges by their own bar)
    const { firstLook: _first, zoomLook: _zoom, tiltLook: _tilt, ...evidence } = compare(other, ref);
    expect(evidence).toEqual(grey);
    const gated = await match(otherPhoto, [[refBlob]]);
    CONFIG.colourGate = 0;
    const tried = await match(otherPhoto, [[refBlob]]);
    expect(gated.matched).toBe(false);
    expect(tried.matched).toBe(false);
    expect(gated.inliers).toBe(grey.inliers);
  });

  it('does not stop a genuine scan: grey or grey and colour reach the bar', async () => {
    expect((await match(genuinePhoto, [[refBlob]])).matched).toBe(true);
  });
});
