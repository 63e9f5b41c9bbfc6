import { MatcherError } from './errors.ts';
import type { Appearance } from './appearance.ts';
import type { GreyImage } from './decode.ts';

/** Binary local features of one normalised image (ORB: 32-byte descriptors). */
export interface Features {
  width: number;
  height: number;
  count: number;
  /** keypoint x, y in pixels of the normalised image */
  x: Float32Array;
  y: Float32Array;
  /** keypoint diameter in pixels and orientation in degrees */
  size: Float32Array;
  angle: Float32Array;
  /** count * DESC_BYTES descriptor bytes */
  desc: Uint8Array;
  /**
   * Feature layers, each from another picture of the same image (grey, then colour channels): layer i holds the
   * keypoints [layers[i], layers[i + 1]). Descriptors are only compared within a layer; positions and sizes of every
   * layer are in the same (grey, full-size) pixel frame, so all layers' correspondences are verified together.
   */
  layers: number[];
  /**
   * A query's decoded grey picture, which its features were found in (not serialised): the second look (engine.ts)
   * warps it again. Absent on references and on views made by layer() / pick().
   */
  image?: GreyImage;
  /**
   * A reference's appearance for the whole-gift check (appearance.ts, decision 056): serialised after the features;
   * absent on references enrolled before it and on views made by layer() / upTo() / pick().
   */
  appearance?: Appearance;
}

export const DESC_BYTES = 32;
/** "GLF1": one layer (grey); still read, so references enrolled before the colour layers keep working. */
const MAGIC_V1 = 0x31464c47;
/** "GLF2": a layer table after the header. */
const MAGIC_V2 = 0x32464c47;
const HEADER = 12;
/** "GLA1": the appearance trailer after the descriptors (decision 056). */
const MAGIC_APPEARANCE = 0x31414c47;
const APPEARANCE_HEADER = 12;
const PER_KP = 8 + DESC_BYTES;
const MAX_LAYERS = 8;

/**
 * Serialised layout (little-endian), 12 + 2 per layer + 40 bytes per keypoint:
 *   u32 magic "GLF2" | u16 width | u16 height | u16 count | u8 descriptor bytes (32) | u8 layer count L
 *   L x u16 keypoints in the layer
 *   per keypoint: u16 x*8 | u16 y*8 | u16 size*16 | u16 angle*(65536/360) ... then all descriptors.
 * Positions keep 1/8 px, ample for RANSAC thresholds of several pixels.
 * Since decision 056 a reference may end with its appearance:
 *   u32 magic "GLA1" | u16 grey width | u16 grey height | u16 colour width | u16 colour height
 *   grey pixels (8-bit) | colour pixels (RGB, 3 bytes each), row-major.
 */
export function serialise(f: Features): Uint8Array {
  const nLayers = f.layers.length - 1;
  const table = HEADER + 2 * nLayers;
  const base = table + f.count * PER_KP;
  const app = f.appearance;
  const out = new Uint8Array(base + (app ? APPEARANCE_HEADER + app.grey.data.length + app.colour.data.length : 0));
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC_V2, true);
  dv.setUint16(4, f.width, true);
  dv.setUint16(6, f.height, true);
  dv.setUint16(8, f.count, true);
  dv.setUint8(10, DESC_BYTES);
  dv.setUint8(11, nLayers);
  for (let l = 0; l < nLayers; l++) dv.setUint16(HEADER + 2 * l, f.layers[l + 1]! - f.layers[l]!, true);
  let o = table;
  for (let i = 0; i < f.count; i++) {
    dv.setUint16(o, clamp16(Math.round(f.x[i]! * 8)), true);
    dv.setUint16(o + 2, clamp16(Math.round(f.y[i]! * 8)), true);
    dv.setUint16(o + 4, clamp16(Math.round(f.size[i]! * 16)), true);
    const a = (((f.angle[i]! % 360) + 360) % 360) * (65536 / 360);
    dv.setUint16(o + 6, Math.round(a) & 0xffff, true);
    o += 8;
  }
  out.set(f.desc.subarray(0, f.count * DESC_BYTES), o);
  if (app) {
    dv.setUint32(base, MAGIC_APPEARANCE, true);
    dv.setUint16(base + 4, app.grey.width, true);
    dv.setUint16(base + 6, app.grey.height, true);
    dv.setUint16(base + 8, app.colour.width, true);
    dv.setUint16(base + 10, app.colour.height, true);
    out.set(app.grey.data, base + APPEARANCE_HEADER);
    out.set(app.colour.data, base + APPEARANCE_HEADER + app.grey.data.length);
  }
  return out;
}

/** The appearance trailer at `at` (exactly to the end of `bytes`), or a MatcherError. */
function readAppearance(bytes: Uint8Array, dv: DataView, at: number, corrupt: () => MatcherError): Appearance {
  if (bytes.byteLength < at + APPEARANCE_HEADER || dv.getUint32(at, true) !== MAGIC_APPEARANCE) throw corrupt();
  const gw = dv.getUint16(at + 4, true), gh = dv.getUint16(at + 6, true), cw = dv.getUint16(at + 8, true), ch = dv.getUint16(at + 10, true);
  if (!gw || !gh || !cw || !ch || bytes.byteLength !== at + APPEARANCE_HEADER + gw * gh + 3 * cw * ch) throw corrupt();
  const g0 = at + APPEARANCE_HEADER, c0 = g0 + gw * gh;
  return { grey: { width: gw, height: gh, data: bytes.slice(g0, c0) }, colour: { width: cw, height: ch, data: bytes.slice(c0, c0 + 3 * cw * ch) } };
}

export function deserialise(bytes: Uint8Array): Features {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < HEADER) {
    throw new MatcherError('invalid_reference', 'The stored reference is not a GiftLens feature blob');
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = dv.getUint32(0, true);
  if ((magic !== MAGIC_V1 && magic !== MAGIC_V2) || dv.getUint8(10) !== DESC_BYTES) {
    throw new MatcherError('invalid_reference', 'The stored reference has an unknown format');
  }
  const width = dv.getUint16(4, true);
  const height = dv.getUint16(6, true);
  const count = dv.getUint16(8, true);
  const nLayers = magic === MAGIC_V1 ? 1 : dv.getUint8(11);
  const table = magic === MAGIC_V1 ? HEADER : HEADER + 2 * nLayers;
  const corrupt = (): MatcherError => new MatcherError('invalid_reference', 'The stored reference is truncated or corrupt');
  const base = table + count * PER_KP;
  if (nLayers < 1 || nLayers > MAX_LAYERS || bytes.byteLength < base || width === 0 || height === 0) {
    throw corrupt();
  }
  const appearance = bytes.byteLength > base ? readAppearance(bytes, dv, base, corrupt) : undefined;
  const layers = [0];
  for (let l = 0; l < nLayers; l++) layers.push(layers[l]! + (magic === MAGIC_V1 ? count : dv.getUint16(HEADER + 2 * l, true)));
  if (layers[nLayers] !== count) throw corrupt();
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  const size = new Float32Array(count);
  const angle = new Float32Array(count);
  let o = table;
  for (let i = 0; i < count; i++) {
    x[i] = dv.getUint16(o, true) / 8;
    y[i] = dv.getUint16(o + 2, true) / 8;
    size[i] = dv.getUint16(o + 4, true) / 16;
    angle[i] = dv.getUint16(o + 6, true) * (360 / 65536);
    o += 8;
  }
  // copy so the descriptors are 4-byte aligned (read as Uint32 by the matcher)
  const desc = new Uint8Array(count * DESC_BYTES);
  desc.set(bytes.subarray(o, o + count * DESC_BYTES));
  return { width, height, count, x, y, size, angle, desc, layers, ...(appearance ? { appearance } : {}) };
}

function clamp16(v: number): number {
  return v < 0 ? 0 : v > 65535 ? 65535 : v;
}

/**
 * About n features, every (count/n)-th of each layer (layers keep their share): a sample spread over all strengths
 * and pyramid levels (a copy).
 */
export function subsample(f: Features, n: number): Features {
  if (n >= f.count) return f;
  const idx: number[] = [];
  const layers = [0];
  for (let l = 0; l + 1 < f.layers.length; l++) {
    const start = f.layers[l]!, len = f.layers[l + 1]! - start;
    const take = Math.round((n * len) / f.count);
    for (let k = 0; k < take; k++) idx.push(start + Math.floor((k * len) / take));
    layers.push(idx.length);
  }
  return { ...pick(f, idx), layers };
}

/** The keypoints idx of f, in that order, as one layer (a copy). */
export function pick(f: Features, idx: number[]): Features {
  const desc = new Uint8Array(idx.length * DESC_BYTES);
  idx.forEach((i, k) => desc.set(f.desc.subarray(i * DESC_BYTES, (i + 1) * DESC_BYTES), k * DESC_BYTES));
  const of = (a: Float32Array) => Float32Array.from(idx, (i) => a[i]!);
  return { width: f.width, height: f.height, count: idx.length, x: of(f.x), y: of(f.y), size: of(f.size), angle: of(f.angle), desc, layers: [0, idx.length] };
}

/** Zero-filled features for `count` keypoints of a width x height image, as one layer. */
export function allocFeatures(width: number, height: number, count: number): Features {
  return {
    width,
    height,
    count,
    x: new Float32Array(count),
    y: new Float32Array(count),
    size: new Float32Array(count),
    angle: new Float32Array(count),
    desc: new Uint8Array(count * DESC_BYTES),
    layers: [0, count],
  };
}

/** Layer l as Features of its own (views on the same arrays, no copy); indices are relative to the layer's start. */
export function layer(f: Features, l: number): Features {
  const a = f.layers[l]!, b = f.layers[l + 1]!;
  return {
    width: f.width,
    height: f.height,
    count: b - a,
    x: f.x.subarray(a, b),
    y: f.y.subarray(a, b),
    size: f.size.subarray(a, b),
    angle: f.angle.subarray(a, b),
    desc: f.desc.subarray(a * DESC_BYTES, b * DESC_BYTES),
    layers: [0, b - a],
  };
}

/**
 * Stacks single-layer feature sets into one multi-layer set in the first one's pixel frame: layer i's positions are
 * mapped by x * scales[i] + offsets[i] (for a channel made of 2x2 blocks: 2x + 0.5, the block's centre) and its
 * sizes multiplied by scales[i].
 */
export function stackLayers(parts: Features[], scales: number[], offsets: number[] = []): Features {
  const base = parts[0]!;
  const out = allocFeatures(base.width, base.height, parts.reduce((a, p) => a + p.count, 0));
  out.layers = [0];
  let o = 0;
  parts.forEach((p, i) => {
    const s = scales[i] ?? 1, off = offsets[i] ?? 0;
    for (let k = 0; k < p.count; k++) {
      out.x[o + k] = p.x[k]! * s + off;
      out.y[o + k] = p.y[k]! * s + off;
      out.size[o + k] = p.size[k]! * s;
      out.angle[o + k] = p.angle[k]!;
    }
    out.desc.set(p.desc.subarray(0, p.count * DESC_BYTES), o * DESC_BYTES);
    o += p.count;
    out.layers.push(o);
  });
  return out;
}

/** The first n layers of f (views on the same arrays, no copy); f itself when it has no more. */
export function upTo(f: Features, n: number): Features {
  if (f.layers.length <= n + 1) return f;
  const b = f.layers[n]!;
  return {
    width: f.width,
    height: f.height,
    count: b,
    x: f.x.subarray(0, b),
    y: f.y.subarray(0, b),
    size: f.size.subarray(0, b),
    angle: f.angle.subarray(0, b),
    desc: f.desc.subarray(0, b * DESC_BYTES),
    layers: f.layers.slice(0, n + 1),
    ...(f.image ? { image: f.image } : {}),
  };
}

/** f with one more layer, `extra` (one layer, positions already in f's pixel frame), after its own (a copy). */
export function withLayer(f: Features, extra: Features): Features {
  const out = allocFeatures(f.width, f.height, f.count + extra.count);
  for (const k of ['x', 'y', 'size', 'angle'] as const) {
    out[k].set(f[k].subarray(0, f.count));
    out[k].set(extra[k].subarray(0, extra.count), f.count);
  }
  out.desc.set(f.desc.subarray(0, f.count * DESC_BYTES));
  out.desc.set(extra.desc.subarray(0, extra.count * DESC_BYTES), f.count * DESC_BYTES);
  out.layers = [...f.layers, f.count + extra.count];
  return out;
}
