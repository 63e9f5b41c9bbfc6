/**
 * npm run -s rating -- --pairs PAIRS.csv [--limit N]
 * Does the recognisability rating predict how well genuine photos match? Every reference of the labelled pairs is
 * enrolled as it is and as four degraded variants made with sharp (blurred, plain, small, repetitive); each is rated
 * and scanned by its genuine queries (compressed as the browser does). Prints, per variant, the ratings and how often
 * each reason fired, then per rating 1-5 the references and the median / min inliers and the match rate of their
 * genuine queries.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { browserCompress, decodeStaged } from '../decode.ts';
import { match } from '../engine.ts';
import { enrol, extractReference } from '../enrol.ts';
import { layer } from '../features.ts';
import { measure, type QualityMeasures, type RatedQuality } from '../quality.ts';
import { argValue, readPairs } from './dataset.ts';

type Variant = (ref: Buffer) => Promise<Buffer>;

/** Each variant stands for a kind of weak gift photo; sizes follow the reference's own. */
const VARIANTS: Record<string, Variant> = {
  original: (ref) => Promise.resolve(ref),
  // out of focus: a Gaussian of 4 px at the reference's size
  blurred: (ref) => sharp(ref).blur(4).jpeg({ quality: 90 }).toBuffer(),
  // a plain surface: the median filter flattens print and texture, leaving big shapes with sharp edges
  plain: (ref) => sharp(ref).median(21).jpeg({ quality: 90 }).toBuffer(),
  // the gift far away: a fifth of the width, in the middle of an empty table
  small: async (ref) => {
    const m = await sharp(ref).metadata();
    const w = m.width ?? 500, h = m.height ?? 500;
    const shrunk = await sharp(ref).resize(Math.round(w / 5)).toBuffer();
    const sm = await sharp(shrunk).metadata();
    const canvas = sharp({ create: { width: w, height: h, channels: 3, background: '#b9b2a6' } });
    return canvas.composite([{ input: shrunk, left: Math.round((w - (sm.width ?? 0)) / 2), top: Math.round((h - (sm.height ?? 0)) / 2) }]).jpeg({ quality: 90 }).toBuffer();
  },
  // wrapping paper: a quarter of the picture tiled 4 x 4
  repetitive: async (ref) => {
    const m = await sharp(ref).metadata();
    const w = m.width ?? 500, h = m.height ?? 500;
    const tw = Math.floor(w / 4), th = Math.floor(h / 4);
    const tile = await sharp(ref).extract({ left: Math.floor(w / 3), top: Math.floor(h / 3), width: tw, height: th }).toBuffer();
    const tiles = Array.from({ length: 16 }, (_, i) => ({ input: tile, left: (i % 4) * tw, top: Math.floor(i / 4) * th }));
    return sharp({ create: { width: tw * 4, height: th * 4, channels: 3, background: '#000000' } }).composite(tiles).jpeg({ quality: 90 }).toBuffer();
  },
};

const csv = argValue('--pairs');
if (!csv) {
  console.error('usage: npm run -s rating -- --pairs PAIRS.csv [--limit N]');
  process.exit(2);
}
const limit = Number(argValue('--limit', '0'));
const genuine = new Map<string, string[]>();
for (const p of readPairs(csv)) {
  if (p.label !== true) continue;
  genuine.set(p.referencePath, [...(genuine.get(p.referencePath) ?? []), p.queryPath]);
}
let refs = [...genuine.keys()];
if (limit > 0) refs = refs.slice(0, limit);

const queries = new Map<string, Buffer>();
const query = async (path: string): Promise<Buffer> => {
  let q = queries.get(path);
  if (!q) queries.set(path, (q = await browserCompress(readFileSync(path))));
  return q;
};

interface Row {
  variant: string;
  quality: RatedQuality;
  inliers: number[];
  matched: number;
  raw?: QualityMeasures;
}
const detail = process.argv.includes('--detail');
/** The unnormalised measurements, for choosing the constants in RATING. */
async function raw(image: Buffer): Promise<Row['raw']> {
  const f = layer(await extractReference(image), 0);
  const grey = (await decodeStaged(image, Math.max(f.width, f.height))).grey;
  return measure(f, grey);
}
const rows: Row[] = [];
for (const ref of refs) {
  const original = readFileSync(ref);
  for (const [variant, make] of Object.entries(VARIANTS)) {
    const image = await make(original);
    const { reference, quality } = await enrol(image);
    const inliers: number[] = [];
    let matched = 0;
    for (const q of genuine.get(ref)!) {
      const d = await match(await query(q), [[reference]]);
      inliers.push(d.inliers);
      if (d.matched) matched++;
    }
    rows.push({ variant, quality, inliers, matched, ...(detail ? { raw: await raw(image) } : {}) });
  }
}

const median = (a: number[]): number => {
  if (a.length === 0) return NaN;
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

console.log(`references: ${refs.length}, variants: ${Object.keys(VARIANTS).join(', ')}`);
console.log('\nvariant      refs  rating 1/2/3/4/5      plain blurred small repetitive  genuine matched');
for (const variant of Object.keys(VARIANTS)) {
  const rs = rows.filter((r) => r.variant === variant);
  const byRating = [1, 2, 3, 4, 5].map((k) => rs.filter((r) => r.quality.rating === k).length).join('/');
  const fired = (reason: string) => rs.filter((r) => (r.quality.reasons as string[]).includes(reason)).length;
  const n = rs.reduce((s, r) => s + r.inliers.length, 0), m = rs.reduce((s, r) => s + r.matched, 0);
  console.log(
    `${variant.padEnd(12)} ${String(rs.length).padStart(4)}  ${byRating.padEnd(20)}  ${String(fired('plain')).padStart(5)} ${String(fired('blurred')).padStart(7)} ${String(fired('small')).padStart(5)} ${String(fired('repetitive')).padStart(10)}  ${m}/${n}`,
  );
}
console.log('\nrating  refs  queries  median inliers  min inliers  matched');
for (const k of [1, 2, 3, 4, 5]) {
  const rs = rows.filter((r) => r.quality.rating === k);
  const all = rs.flatMap((r) => r.inliers);
  const m = rs.reduce((s, r) => s + r.matched, 0);
  const pct = all.length ? `${((100 * m) / all.length).toFixed(0)}%` : '-';
  console.log(`${k}       ${String(rs.length).padStart(4)}  ${String(all.length).padStart(7)}  ${String(median(all)).padStart(14)}  ${String(all.length ? Math.min(...all) : NaN).padStart(11)}  ${pct.padStart(7)}`);
}
if (detail) {
  for (const r of rows) console.log(JSON.stringify({ variant: r.variant, score: r.quality.score, rating: r.quality.rating, reasons: r.quality.reasons, ...r.raw, inliers: r.inliers }));
}
