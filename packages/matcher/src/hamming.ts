/**
 * Tentative correspondences between two feature sets: brute-force nearest neighbours under the Hamming distance
 * (a hand-written WebAssembly SIMD kernel, src/hamming.wat), Lowe's ratio test and the same-spot rule.
 */
import { readFileSync } from 'node:fs';
import { DESC_BYTES, type Features } from './features.ts';

/** Tentative correspondences: parallel arrays of query / reference keypoint indices. */
export interface Correspondences {
  q: Int32Array;
  r: Int32Array;
  /** Hamming distance of each correspondence */
  dist: Int32Array;
  count: number;
}

interface Kernel {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  nearest3(q: number, nq: number, r: number, nr: number, out: number): void;
}

/** The two WebAssembly JS API constructors used here (TypeScript declares them only in its DOM library). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

/** Per thread: the module is a few hundred bytes, compiled synchronously on first use. */
let kernel: Kernel | undefined;
function loadKernel(): Kernel {
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const bytes = readFileSync(new URL('./hamming.wasm', import.meta.url));
  return new wasm.Instance(new wasm.Module(bytes), {}).exports as Kernel;
}

/** The kernel's memory, grown to hold at least `bytes`. */
function memoryFor(k: Kernel, bytes: number): ArrayBuffer {
  const have = k.memory.buffer.byteLength;
  if (have < bytes) k.memory.grow(Math.ceil((bytes - have) / 65536));
  return k.memory.buffer;
}

const OUT_INTS = 5;

/**
 * For every query keypoint, its nearest reference keypoint in the same layer (grey with grey, each colour channel
 * with the same channel), kept if it passes Lowe's ratio test d1 < ratio * d2. A second neighbour lying within
 * `sameSpot` px of the first in the reference is the same structure at another pyramid level or a pixel off, not a
 * rival: the ratio test then uses the third neighbour instead. Layers only one side has (a reference enrolled before
 * colour layers existed) are skipped. Indices in the result index the whole feature sets.
 */
export function matchLayers(query: Features, ref: Features, ratio: number, maxDist = 256, sameSpot = 0): Correspondences {
  kernel ??= loadKernel();
  const qBytes = query.count * DESC_BYTES, rBytes = ref.count * DESC_BYTES;
  const outAt = qBytes + rBytes;
  const buffer = memoryFor(kernel, outAt + query.count * OUT_INTS * 4);
  const heap = new Uint8Array(buffer);
  heap.set(query.desc.subarray(0, qBytes), 0);
  heap.set(ref.desc.subarray(0, rBytes), qBytes);
  const layers = Math.min(query.layers.length, ref.layers.length) - 1;
  for (let l = 0; l < layers; l++) {
    const q0 = query.layers[l]!, r0 = ref.layers[l]!;
    kernel.nearest3(q0 * DESC_BYTES, query.layers[l + 1]! - q0, qBytes + r0 * DESC_BYTES, ref.layers[l + 1]! - r0, outAt + q0 * OUT_INTS * 4);
  }
  const out = new Int32Array(buffer, outAt, query.count * OUT_INTS);
  const near2 = sameSpot * sameSpot;
  const n = query.layers[layers]!;
  const q = new Int32Array(n);
  const r = new Int32Array(n);
  const dist = new Int32Array(n);
  let count = 0;
  for (let l = 0; l < layers; l++) {
    const r0 = ref.layers[l]!;
    for (let i = query.layers[l]!; i < query.layers[l + 1]!; i++) {
      const o = i * OUT_INTS;
      if (out[o]! < 0) continue;
      const b = out[o]! + r0, d1 = out[o + 1]!;
      if (d1 > maxDist) continue;
      let second = out[o + 3]!;
      if (near2 > 0 && out[o + 2]! >= 0) {
        const b2 = out[o + 2]! + r0;
        const dx = ref.x[b]! - ref.x[b2]!, dy = ref.y[b]! - ref.y[b2]!;
        if (dx * dx + dy * dy <= near2) second = out[o + 4]!;
      }
      if (d1 >= ratio * second) continue;
      q[count] = i;
      r[count] = b;
      dist[count] = d1;
      count++;
    }
  }
  return { q, r, dist, count };
}
