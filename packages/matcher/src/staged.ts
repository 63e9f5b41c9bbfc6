/**
 * A photo's features in stages (base level, all grey, grey and colour), each computed once when first asked for, and
 * the layers a reference keeps (grey, two colour layers, the tilted views).
 */
import { type PhotoPixels } from './appearance.ts';
import { CONFIG } from './config.ts';
import { loadCv } from './cv.ts';
import { decodeStaged, type GreyImage } from './decode.ts';
import { extractFeatures, type ExtractOptions, extractSplit } from './extract.ts';
import { type Features, layer, pick, stackLayers, upTo } from './features.ts';

/** The layer a reference enrolled since decision 053 keeps its tilted views in (after grey and the two colour layers). */
const TILT_LAYER = 3;

/** The base level's keypoints in a grey layer: ORB gives them the patch size (31 px) unscaled. */
const BASE_LEVEL_SIZE = 31;

export function extractOptions(n: number, levels: number, scale = 1.2): ExtractOptions {
  return { maxFeatures: n, fastThreshold: CONFIG.fastThreshold, nLevels: levels, scaleFactor: scale, grid: CONFIG.grid, oversample: 2, ownDescriptors: CONFIG.ownDescriptors };
}

/**
 * A photo's features in stages, each computed once when first asked for: the base pyramid level's grey keypoints
 * (with CONFIG.firstPass), all grey keypoints, then grey + colour layers.
 */
export interface StagedFeatures {
  /** the base level's grey features (a subset of grey(), in the same order); undefined without a first pass */
  first?: Features;
  /** the decoded grey picture (the second look warps it) */
  image: GreyImage;
  /** the grey picture and its RGB pixels, for the whole-gift check */
  photo: PhotoPixels;
  grey(): Features;
  all(): Features;
}

export async function extractStaged(image: Buffer | Uint8Array, side: number, features: number, levels: number, chromaLevels: number, scale: number, firstPass = false): Promise<StagedFeatures> {
  const d = await decodeStaged(image, side, !CONFIG.decodeInOnePass);
  const cv = await loadCv();
  const opts = extractOptions(features, levels, scale);
  const split = firstPass ? extractSplit(cv, d.grey, opts) : null;
  let grey: Features | undefined = split ? undefined : extractFeatures(cv, d.grey, opts);
  let all: Features | undefined;
  let chromaOf: [GreyImage, GreyImage] | undefined;
  const chroma = (): [GreyImage, GreyImage] => (chromaOf ??= d.chroma(CONFIG.chromaStep));
  const greyAll = (): Features => (grey ??= split!.all());
  return {
    ...(split ? { first: split.first } : {}),
    image: d.grey,
    photo: { grey: d.grey, rgb: d.rgb },
    grey: greyAll,
    all: () => {
      if (all) return all;
      const step = CONFIG.chromaStep;
      const channels = chroma();
      const parts = [greyAll(), ...channels.map((c) => extractFeatures(cv, c, extractOptions(CONFIG.chromaFeatures, chromaLevels)))];
      all = stackLayers(parts, [1, ...channels.map(() => step)], [0, ...channels.map(() => (step - 1) / 2)]);
      all.image = d.grey;
      return all;
    },
  };
}

/** A reference's tilted views (one layer), when it was enrolled with them. */
export function tiltedLayer(ref: Features): Features | undefined {
  return ref.layers.length > TILT_LAYER + 1 && ref.layers[TILT_LAYER + 1]! > ref.layers[TILT_LAYER]! ? layer(ref, TILT_LAYER) : undefined;
}

/** The layers a scan compares: grey and colour, without the tilted views (those the tilted look compares apart). */
export function scanLayers(f: Features): Features {
  return upTo(f, TILT_LAYER);
}

export function stageQuery(image: Buffer | Uint8Array): Promise<StagedFeatures> {
  return extractStaged(image, CONFIG.querySide, CONFIG.queryFeatures, CONFIG.queryLevels, CONFIG.queryChromaLevels, CONFIG.queryScale, CONFIG.greyFirst && CONFIG.firstPass);
}

export async function extractQuery(image: Buffer | Uint8Array): Promise<Features> {
  return (await stageQuery(image)).all();
}

/** The grey keypoints of the base pyramid level (what the first pass compares), in their order. */
export function baseLevel(grey: Features): Features {
  const idx: number[] = [];
  for (let i = 0; i < grey.count; i++) if (grey.size[i] === BASE_LEVEL_SIZE) idx.push(i);
  return pick(grey, idx);
}
