import { MatcherError } from './errors.ts';

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
}

export const DESC_BYTES = 32;
const MAGIC = 0x31464c47; // "GLF1" little-endian
const HEADER = 12;
const PER_KP = 8 + DESC_BYTES;

/**
 * Serialised layout (little-endian), 12 + 40 bytes per keypoint:
 *   u32 magic "GLF1" | u16 width | u16 height | u16 count | u8 descriptor bytes (32) | u8 reserved
 *   per keypoint: u16 x*8 | u16 y*8 | u16 size*16 | u16 angle*(65536/360) ... then all descriptors.
 * Positions keep 1/8 px, ample for RANSAC thresholds of several pixels.
 */
export function serialise(f: Features): Uint8Array {
  const out = new Uint8Array(HEADER + f.count * PER_KP);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint16(4, f.width, true);
  dv.setUint16(6, f.height, true);
  dv.setUint16(8, f.count, true);
  dv.setUint8(10, DESC_BYTES);
  let o = HEADER;
  for (let i = 0; i < f.count; i++) {
    dv.setUint16(o, clamp16(Math.round(f.x[i]! * 8)), true);
    dv.setUint16(o + 2, clamp16(Math.round(f.y[i]! * 8)), true);
    dv.setUint16(o + 4, clamp16(Math.round(f.size[i]! * 16)), true);
    const a = (((f.angle[i]! % 360) + 360) % 360) * (65536 / 360);
    dv.setUint16(o + 6, Math.round(a) & 0xffff, true);
    o += 8;
  }
  out.set(f.desc.subarray(0, f.count * DESC_BYTES), o);
  return out;
}

export function deserialise(bytes: Uint8Array): Features {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < HEADER) {
    throw new MatcherError('invalid_reference', 'The stored reference is not a GiftLens feature blob');
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC || dv.getUint8(10) !== DESC_BYTES) {
    throw new MatcherError('invalid_reference', 'The stored reference has an unknown format');
  }
  const width = dv.getUint16(4, true);
  const height = dv.getUint16(6, true);
  const count = dv.getUint16(8, true);
  if (bytes.byteLength !== HEADER + count * PER_KP || width === 0 || height === 0) {
    throw new MatcherError('invalid_reference', 'The stored reference is truncated or corrupt');
  }
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  const size = new Float32Array(count);
  const angle = new Float32Array(count);
  let o = HEADER;
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
  return { width, height, count, x, y, size, angle, desc };
}

function clamp16(v: number): number {
  return v < 0 ? 0 : v > 65535 ? 65535 : v;
}

/** Every (count/n)-th feature: a sample of about n spread over all strengths and pyramid levels (a copy). */
export function subsample(f: Features, n: number): Features {
  if (n >= f.count) return f;
  const idx = Array.from({ length: n }, (_, k) => Math.floor((k * f.count) / n));
  const desc = new Uint8Array(n * DESC_BYTES);
  idx.forEach((i, k) => desc.set(f.desc.subarray(i * DESC_BYTES, (i + 1) * DESC_BYTES), k * DESC_BYTES));
  const pick = (a: Float32Array) => Float32Array.from(idx, (i) => a[i]!);
  return { width: f.width, height: f.height, count: n, x: pick(f.x), y: pick(f.y), size: pick(f.size), angle: pick(f.angle), desc };
}
