/**
 * Engine recipes the bench compares in one run (ratios beside each other under the same machine load): the shipped
 * CONFIG, the recipe of decision 026, and the one before it (colour layers on every scan, the "75 ms"), then
 * decision 028's recipe and each of decision 033's two changes alone (they compute the same features for less CPU),
 * the recipe just before decision 047 (no second look, no zoomed look), the one just before decision 052 (no zoomed look)
 * the one just before decision 053 (no tilted look) and the one just before decision 056 (no whole-gift check).
 * Only query-side and decision settings differ, and whether references carry tilted views (tiltLook, decision 053).
 */
import { CONFIG } from '../config.ts';

export type EngineConfig = typeof CONFIG;

export interface Recipe {
  name: string;
  config: Partial<EngineConfig>;
}

/** The recipe before decision 056: inliers decide alone (no whole-gift check). Off for every earlier recipe too. */
const BEFORE_056: Partial<EngineConfig> = { wholeGift: false };

/** The recipe before decision 053: no tilted look (references enrolled without their tilted views). Off for every earlier recipe too. */
const BEFORE_053: Partial<EngineConfig> = { ...BEFORE_056, tiltLook: 0 };

/** The recipe before decision 052: no zoomed look. Off for every earlier recipe too. */
const BEFORE_052: Partial<EngineConfig> = { ...BEFORE_053, zoomLook: 0 };

/** The recipe before decision 047 (decision 047): no second look (and no zoomed look). Off for every earlier recipe too. */
const BEFORE_047: Partial<EngineConfig> = { ...BEFORE_052, secondLook: 0 };

/** What decision 033 changed in how features are computed (the same features, less CPU): off for the earlier recipes. */
const BEFORE_033: Partial<EngineConfig> = { ...BEFORE_047, ownDescriptors: false, decodeInOnePass: false, firstPass: false };

/** Decision 026 (grey first, then colour; query 540 px, 6 grey and 3 colour levels, ratio 0.85, bar 22). */
export const RECIPE_026: Partial<EngineConfig> = {
  ...BEFORE_033,
  querySide: 540,
  queryLevels: 6,
  queryChromaLevels: 3,
  ratio: 0.85,
  minInliers: 22,
  greyFirst: true,
  colourGate: 0,
};

export const RECIPES: Recipe[] = [
  { name: 'shipped', config: {} },
  { name: 'before 056 (no whole-gift check)', config: BEFORE_056 },
  { name: 'before 053 (no tilted look)', config: BEFORE_053 },
  { name: 'before 052 (no zoomed look)', config: BEFORE_052 },
  { name: 'before 047 (no second look)', config: BEFORE_047 },
  { name: 'decision 026 (grey first)', config: RECIPE_026 },
  { name: 'before 026 (colour on every scan)', config: { ...RECIPE_026, greyFirst: false } },
  { name: 'decision 028 (OpenCV descriptors)', config: BEFORE_033 },
  { name: '028 + one-pass decode', config: { ...BEFORE_047, ownDescriptors: false, firstPass: false } },
  { name: '028 + own descriptors', config: { ...BEFORE_047, decodeInOnePass: false, firstPass: false } },
  { name: '028 + first pass', config: { ...BEFORE_047, ownDescriptors: false, decodeInOnePass: false } },
  { name: 'shipped without the first pass', config: { firstPass: false } },
];

/** Runs fn with CONFIG overridden, then restores it (also when fn throws). */
export async function withConfig<T>(over: Partial<EngineConfig>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...CONFIG };
  Object.assign(CONFIG, over);
  try {
    return await fn();
  } finally {
    Object.assign(CONFIG, saved);
  }
}
