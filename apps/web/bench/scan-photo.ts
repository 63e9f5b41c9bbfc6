/**
 * npm run bench:scan-photo [-- --pairs PAIRS.csv] [--side 1280] [--busy-frames 30]
 *
 * The scan photo the browser sends (decision 035), measured in Debian's Chromium against the recipe it replaced:
 * - time per frame, on a quiet page and on a page whose main thread is busy as a live camera page's is (12 ms of
 *   work in every animation frame);
 * - what the matcher decides on each: every pair of the data set, its query photo drawn as a camera frame (longer
 *   side `--side` px), encoded by today's recipe, by the previous one, and by `browserCompress` (sharp, the
 *   recipe the matcher is calibrated on) from the same frame.
 * It prints figures; it does not fail on a missed target.
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { browserCompress } from '@giftlens/matcher/decode';
import { enrol } from '@giftlens/matcher/enrol';
import { match, type MatchDecision } from '@giftlens/matcher/engine';
import { argValue, readPairs } from '@giftlens/matcher/cli/dataset';
import { CHROMIUM_ARGS } from '../../../e2e/support/chromium.ts';
import type { Encoded } from './scan-photo.page.ts';

const here = dirname(fileURLToPath(import.meta.url));
const pairs = readPairs(argValue('--pairs', resolve(here, '../../../../shared/datasets/gift-photos/pairs.csv'))!);
const SIDE = Number(argValue('--side', '1280'));
const BUSY_FRAMES = Number(argValue('--busy-frames', '30'));

// The page: scan-photo.page.ts and what it imports, bundled by Vite into one script.
const out = mkdtempSync(join(tmpdir(), 'giftlens-scan-photo-'));
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir: out,
    emptyOutDir: true,
    minify: false,
    lib: { entry: resolve(here, 'scan-photo.page.ts'), formats: ['iife'], name: 'scanPhotoPage', fileName: () => 'page.js' },
  },
});
const pageJs = readFileSync(join(out, 'page.js'));
rmSync(out, { recursive: true, force: true });

const queries = [...new Set(pairs.map((p) => p.queryPath))];
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/page.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(pageJs);
  if (url.pathname === '/photo') {
    const path = queries[Number(url.searchParams.get('i'))];
    if (path) return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(readFileSync(path));
  }
  if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/page.js"></script>');
  res.writeHead(404).end();
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const port = (server.address() as { port: number }).port;

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${port}/`);
const encode = (i: number, withFrame: boolean, busy: boolean) =>
  page.evaluate(
    ([i, side, withFrame, busy]) =>
      (window as unknown as { scanPhotoBench: { encode: (...a: unknown[]) => Promise<Encoded> } }).scanPhotoBench.encode(
        `/photo?i=${i}`,
        side,
        withFrame,
        busy,
      ),
    [i, SIDE, withFrame, busy] as const,
  );

console.log(`Chromium ${browser.version()}; ${queries.length} query photos drawn as camera frames (longer side ${SIDE} px)`);
const scans = new Map<string, { previous: Buffer; current: Buffer; sharp: Buffer }>();
const quiet = { previous: [] as number[], current: [] as number[] };
for (const [i, path] of queries.entries()) {
  const e = await encode(i, true, false);
  quiet.previous.push(e.previousMs);
  quiet.current.push(e.currentMs);
  scans.set(path, {
    previous: Buffer.from(e.previous, 'base64'),
    current: Buffer.from(e.current, 'base64'),
    sharp: await browserCompress(Buffer.from(e.frame, 'base64')),
  });
}
const busy = { previous: [] as number[], current: [] as number[] };
for (let i = 0; i < Math.min(BUSY_FRAMES, queries.length); i++) {
  const e = await encode(i, false, true);
  busy.previous.push(e.previousMs);
  busy.current.push(e.currentMs);
}
await browser.close();
server.close();

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const ms = (xs: number[]) => `${pct(xs, 0.5).toFixed(0)} / ${pct(xs, 0.95).toFixed(0)} / ${Math.max(...xs).toFixed(0)}`;
console.log('\nms per frame in the page, median / p95 / max');
console.log('| recipe | quiet page | busy main thread |\n|---|---|---|');
console.log(`| toBlob 0.92 + browser-image-compression (before) | ${ms(quiet.previous)} | ${ms(busy.previous)} |`);
console.log(`| scanFrame: drawn at 600 px, toDataURL 0.5 (now) | ${ms(quiet.current)} | ${ms(busy.current)} |`);
const ratio = (a: number[], b: number[]) => (pct(a, 0.5) / pct(b, 0.5)).toFixed(2);
console.log(`now / before, medians: quiet ×${ratio(quiet.current, quiet.previous)}, busy ×${ratio(busy.current, busy.previous)}`);

// The matcher on each recipe's scans.
const refs = new Map<string, Uint8Array>();
type Recipe = 'sharp' | 'previous' | 'current';
const RECIPES: Recipe[] = ['sharp', 'previous', 'current'];
const decisions: Record<Recipe, { label: boolean | undefined; d: MatchDecision }[]> = { sharp: [], previous: [], current: [] };
const sizes: Record<Recipe, number[]> = { sharp: [], previous: [], current: [] };
for (const p of pairs) {
  let ref = refs.get(p.referencePath);
  if (!ref) {
    ref = (await enrol(readFileSync(p.referencePath))).reference;
    refs.set(p.referencePath, ref);
  }
  const s = scans.get(p.queryPath)!;
  for (const r of RECIPES) {
    decisions[r].push({ label: p.label, d: await match(s[r], [[ref]]) });
    sizes[r].push(s[r].length / 1024);
  }
}
console.log(`\nThe matcher on ${pairs.length} pairs (${decisions.sharp.filter((x) => x.label).length} genuine)`);
console.log('| recipe | genuine matched | impostors matched | genuine inliers, min / median | impostor inliers, max | KB, median | same decision as sharp |');
console.log('|---|---|---|---|---|---|---|');
for (const r of RECIPES) {
  const genuine = decisions[r].filter((x) => x.label === true);
  const impostors = decisions[r].filter((x) => x.label === false);
  const gi = genuine.map((x) => x.d.inliers);
  const same = decisions[r].filter((x, i) => x.d.matched === decisions.sharp[i]!.d.matched).length;
  console.log(
    `| ${r} | ${genuine.filter((x) => x.d.matched).length}/${genuine.length} | ${impostors.filter((x) => x.d.matched).length}/${impostors.length} | ` +
      `${Math.min(...gi)} / ${pct(gi, 0.5)} | ${Math.max(0, ...impostors.map((x) => x.d.inliers))} | ${pct(sizes[r], 0.5).toFixed(0)} | ${same}/${pairs.length} |`,
  );
}
process.exit(0);
