/**
 * npm run -s robustness -w @giftlens/matcher [-- --pairs PAIRS.csv --step 2]
 * Synthetic robustness table: each reference of the data set (every `step`-th cover, all objects) is enrolled, then
 * distorted photos of it are generated (rotation, scale, perspective tilt, blur, dim light, 30% occlusion,
 * JPEG 0.3), sent through the browser's compression (fit 600x600, JPEG 0.5) and scanned against the reference
 * (genuine) and against another reference (impostor). Prints one markdown table.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { loadCv } from '../cv.ts';
import { browserCompress } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { argValue, readPairs } from './dataset.ts';
import { warpTo } from './warp.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const step = Number(argValue('--step', '2'));
const only = argValue('--only');
const all = [...new Set(readPairs(csv).map((p) => p.referencePath))].sort();
const refs = all.filter((p, i) => !p.includes('/covers/') || i % step === 0);
const cv = await loadCv();
const BG = { r: 128, g: 124, b: 118 };

async function onCanvas(img: Buffer, w: number, h: number): Promise<Buffer> {
  const m = await sharp(img).metadata();
  const left = Math.max(0, Math.round((w - (m.width ?? 0)) / 2));
  const top = Math.max(0, Math.round((h - (m.height ?? 0)) / 2));
  return sharp({ create: { width: w, height: h, channels: 3, background: BG } })
    .composite([{ input: img, left, top }])
    .png()
    .toBuffer();
}

async function tilt(img: Buffer, deg: number): Promise<Buffer> {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels } = info;
  const f = Math.max(w, h) * 1.2; // ~45° field of view
  const t = (deg * Math.PI) / 180;
  const project = (x: number, y: number): [number, number] => {
    const X = x - w / 2, Y = y - h / 2;
    const Yr = Y * Math.cos(t), Z = Y * Math.sin(t);
    return [(f * X) / (f + Z) + w / 2, (f * Yr) / (f + Z) + h / 2];
  };
  const quad = [...project(0, 0), ...project(w, 0), ...project(w, h), ...project(0, h)];
  return warpTo(cv, { data, width: w, height: h, channels }, quad, w, h, [BG.r, BG.g, BG.b, 255]);
}

type Distort = (img: Buffer, w: number, h: number) => Promise<Buffer>;
const distortions: [string, Distort][] = [
  ...[0, 45, 90, 135, 180, 225, 270, 315].map(
    (a) => [`rotation ${a}°`, async (img: Buffer) => sharp(img).rotate(a, { background: BG }).png().toBuffer()] as [string, Distort],
  ),
  ...[0.7, 0.5, 0.4, 0.3].map(
    (s) =>
      [
        `scale ${s}x (object ${Math.round(s * 100)}% of the frame width)`,
        async (img: Buffer, w: number, h: number) => onCanvas(await sharp(img).resize(Math.round(w * s)).toBuffer(), w, h),
      ] as [string, Distort],
  ),
  ...[20, 35, 50].map((d) => [`perspective tilt ${d}°`, async (img: Buffer) => tilt(img, d)] as [string, Distort]),
  ...[1.5, 3].map((s) => [`blur (gaussian σ ${s} px)`, async (img: Buffer) => sharp(img).blur(s).png().toBuffer()] as [string, Distort]),
  ...[0.3, 0.15].map(
    (k) =>
      [
        `dim light (${Math.round(k * 100)}% brightness, sensor noise)`,
        async (img: Buffer, w: number, h: number) => {
          const noise = await sharp({ create: { width: w, height: h, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 0, sigma: 4 } } }).png().toBuffer();
          return sharp(img).removeAlpha().linear(k, 0).composite([{ input: noise, blend: 'add' }]).png().toBuffer();
        },
      ] as [string, Distort],
  ),
  [
    '30% occluded (a hand-sized patch over a corner)',
    async (img: Buffer, w: number, h: number) => {
      const side = Math.sqrt(0.3 * w * h);
      const ow = Math.min(w, Math.round(side)), oh = Math.min(h, Math.round((0.3 * w * h) / Math.min(w, side)));
      const patch = await sharp({ create: { width: ow, height: oh, channels: 3, background: { r: 205, g: 160, b: 130 } } }).png().toBuffer();
      return sharp(img).composite([{ input: patch, left: w - ow, top: h - oh }]).png().toBuffer();
    },
  ],
  ['JPEG quality 0.3', async (img: Buffer) => sharp(img).jpeg({ quality: 30 }).toBuffer()],
  [
    'combined: rotation 30°, scale 0.5x, tilt 30°, dim 50%, JPEG 0.3',
    async (img: Buffer, w: number, h: number) => {
      const t = await tilt(await sharp(img).rotate(30, { background: BG }).png().toBuffer(), 30);
      const small = await sharp(t).resize(Math.round(w * 0.5)).toBuffer();
      return sharp(await onCanvas(small, w, h)).linear(0.5, 0).jpeg({ quality: 30 }).toBuffer();
    },
  ],
];

const enrolled = new Map<string, Uint8Array>();
const originals = new Map<string, { img: Buffer; w: number; h: number }>();
for (const r of refs) {
  const buf = readFileSync(r);
  enrolled.set(r, (await enrol(buf)).reference);
  const img = await sharp(buf).rotate().png().toBuffer();
  const m = await sharp(img).metadata();
  originals.set(r, { img, w: m.width ?? 0, h: m.height ?? 0 });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`Robustness: ${refs.length} references of gift-photos (${refs.filter((r) => r.includes('/covers/')).length} covers, ${refs.filter((r) => !r.includes('/covers/')).length} objects); each distorted photo is compressed like the browser (600x600, JPEG 0.5), then scanned against its reference and against another one.\n`);
console.log('| distortion | true matches | false matches | median inliers (genuine) | lowest genuine | highest impostor |');
console.log('|---|---|---|---|---|---|');
for (const [name, fn] of distortions) {
  if (only && !name.includes(only)) continue;
  let ok = 0, fm = 0;
  const inl: number[] = [];
  let worstImpostor = 0;
  for (const [i, r] of refs.entries()) {
    const o = originals.get(r)!;
    const q = await browserCompress(await fn(o.img, o.w, o.h));
    const g = await match(q, [[enrolled.get(r)!]]);
    const other = refs[(i + 1) % refs.length]!;
    const im = await match(q, [[enrolled.get(other)!]]);
    if (g.matched) ok++;
    if (im.matched) fm++;
    inl.push(g.inliers);
    worstImpostor = Math.max(worstImpostor, im.inliers);
  }
  console.log(`| ${name} | ${ok}/${refs.length} (${((ok / refs.length) * 100).toFixed(0)}%) | ${fm}/${refs.length} | ${median(inl)} | ${Math.min(...inl)} | ${worstImpostor} |`);
}
