/**
 * npx tsx packages/matcher/src/cli/soak.ts [scans]
 * Memory soak: enrol + scan repeatedly (including failing inputs) and print the WebAssembly heap and RSS, to show
 * OpenCV memory is freed on every path (the wasm heap never shrinks, so a leak shows as steady growth).
 */
import { readFileSync } from 'node:fs';
import { loadCv } from '../cv.ts';
import { browserCompress } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol } from '../enrol.ts';

const n = Number(process.argv[2] ?? 10000);
const base = '/work/shared/datasets/gift-photos/';
const cv = (await loadCv()) as unknown as { HEAPU8: Uint8Array };
const refs = await Promise.all(['covers/reference/001.jpg', 'covers/reference/002.jpg', 'objects/00-0.jpg'].map(async (p) => (await enrol(readFileSync(base + p))).reference));
const queries = await Promise.all(['covers/photos/001-canon.jpg', 'covers/photos/017-droid.jpg', 'objects/00-1.jpg'].map((p) => browserCompress(readFileSync(base + p))));
const report = (i: number) =>
  console.log(`${i} scans: wasm heap ${(cv.HEAPU8.length / 2 ** 20).toFixed(1)} MiB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
for (let i = 0; i < n; i++) {
  if (i % Math.max(1, Math.floor(n / 10)) === 0) report(i);
  if (i % 50 === 49) await match(Buffer.from('broken'), [refs]).catch(() => undefined);
  if (i % 100 === 99) await enrol(queries[i % 3]!);
  await match(queries[i % 3]!, i % 2 ? [refs] : [[refs[i % 3]!]]);
}
report(n);
