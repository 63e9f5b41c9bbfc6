/**
 * Enrolment: a reference photo's features (grey, colour, tilted views, appearance), serialised, and its rating.
 */
import { appearanceOf } from './appearance.ts';
import { CONFIG } from './config.ts';
import { type Features, layer, serialise, stackLayers, withLayer } from './features.ts';
import { tiltedViews } from './looks.ts';
import { type RatedQuality, rateReference } from './quality.ts';
import { extractStaged } from './staged.ts';

export interface EnrolResult {
  /** compact serialised features, stored in a DB blob column */
  reference: Uint8Array;
  quality: RatedQuality;
}

export async function extractReference(image: Buffer | Uint8Array): Promise<Features> {
  const staged = await extractStaged(image, CONFIG.refSide, CONFIG.refFeatures, CONFIG.refLevels, CONFIG.refChromaLevels, 1.2);
  const all = staged.all();
  const appearance = CONFIG.wholeGift ? { appearance: appearanceOf(staged.image, staged.photo.rgb) } : {};
  if (CONFIG.tiltLook <= 0) return { ...all, ...appearance };
  const directions = Array.from({ length: CONFIG.tiltDirections }, (_, i) => (i * 180) / CONFIG.tiltDirections);
  const views = tiltedViews(staged.image, directions, CONFIG.tiltLook, CONFIG.tiltFeatures, CONFIG.tiltLevels);
  const tilted = stackLayers(views, []);
  return { ...withLayer(all, { ...tilted, layers: [0, tilted.count] }), ...appearance };
}

export async function enrol(image: Buffer | Uint8Array): Promise<EnrolResult> {
  const f = await extractReference(image);
  const quality = await rateReference(image, layer(f, 0));
  return { reference: serialise(f), quality };
}
