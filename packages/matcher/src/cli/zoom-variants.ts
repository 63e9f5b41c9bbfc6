/**
 * npm run -s zoomvariants -w @giftlens/matcher -- --pairs PAIRS.csv [--step 4] [--impostors 6] [--views w2l4,c7l1,...]
 *
 * How decision 052's zoomed look was chosen: on hard cases of `npm run -s phonecases` (the same generator and seeds,
 * other scenes: every `step`-th cover and every 2nd object), each scene against its reference and `impostors` others, the
 * evidence the engine had before (first and second look) and, per variant of the zoomed look, the grey evidence of the
 * enlarged picture and of a second look from its model. A variant is `w` (the whole picture) or `c` (its middle, that
 * many tenths of the width and height) with its zoom (w2 = x2, w15 = x1.5; the middle is always x2), `l` ORB levels
 * and optionally `n` features (default 1000): `c7l1` = the middle 70% x2, one level. Prints, per condition and
 * strength, the genuine scenes each variant brings to CONFIG.zoomLookBar (with the looks before it at the bar) and its
 * highest impostor, and its CPU per comparison (its extraction counted in every comparison: an upper bound).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCv } from '../cv.ts';
import { decodeGrey, type GreyImage } from '../decode.ts';
import { CONFIG, compare, extractQuery, extractReference, secondLookAt } from '../engine.ts';
import { extractFeatures } from '../extract.ts';
import { layer, type Features } from '../features.ts';
import { matchLayers } from '../hamming.ts';
import { DEFAULT_VERIFY, verify } from '../verify.ts';
import { argValue, readPairs } from './dataset.ts';
import { giftIndex, giftOf } from './evidence.ts';
import { context, PHONE_CONDITIONS, phoneCase, STRENGTHS } from './hardcase-gen.ts';

const csv = argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!;
const step = Number(argValue('--step', '4'));
const nImp = Number(argValue('--impostors', '6'));
const only = argValue('--conditions')?.split(',');
const outDir = argValue('--out', join(tmpdir(), 'giftlens-matcher', 'zoom-variants'))!;
mkdirSync(outDir, { recursive: true });
const cv = await loadCv();
const pairs = readPairs(csv);
const { refPaths, kindOf, refOf, photosOf, gifts, backgrounds } = giftIndex(pairs);
const refs = new Map<string, Features>();
for (const r of refPaths) refs.set(r, await extractReference(readFileSync(r)));

const cpu = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/** The w x h part of `img` at (x0, y0) enlarged f times (bilinear), as the engine's resizeGrey does. */
function resize(img: GreyImage, x0: number, y0: number, w: number, h: number, f: number): GreyImage {
  const src = new cv.Mat(img.height, img.width, cv.CV_8UC1);
  const dst = new cv.Mat();
  let roi: InstanceType<typeof cv.Mat> | undefined;
  try {
    src.data.set(img.data);
    roi = src.roi(new cv.Rect(x0, y0, w, h));
    cv.resize(roi, dst, new cv.Size(Math.round(w * f), Math.round(h * f)), 0, 0, cv.INTER_LINEAR);
    return { width: dst.cols, height: dst.rows, data: dst.data.slice(0, dst.cols * dst.rows) };
  } finally {
    roi?.delete();
    dst.delete();
    src.delete();
  }
}

function grey(img: GreyImage, levels = CONFIG.queryLevels, n = CONFIG.queryFeatures): Features {
  return extractFeatures(cv, img, { maxFeatures: n, fastThreshold: CONFIG.fastThreshold, nLevels: levels, scaleFactor: CONFIG.queryScale, grid: 0, oversample: 2, ownDescriptors: true });
}

function ev(q: Features, r: Features) {
  const c = matchLayers(q, r, CONFIG.ratio, 256, CONFIG.sameSpot);
  const v = verify(q, r, c, { ...DEFAULT_VERIFY, samePointPx: CONFIG.samePoint });
  return v;
}

interface View { name: string; levels: number; n: number; make: (img: GreyImage) => { img: GreyImage; toQuery: number[] } }
/** zoomed pixels -> query pixels for cv.resize (pixel centres aligned), as the engine's zoomedFeatures */
const back = (z: number, x0: number, y0: number) => [1 / z, 0, x0 + 0.5 / z - 0.5, 0, 1 / z, y0 + 0.5 / z - 0.5, 0, 0, 1];
const whole = (z: number) => (img: GreyImage) => ({ img: resize(img, 0, 0, img.width, img.height, z), toQuery: back(z, 0, 0) });
const centre = (share: number, z: number) => (img: GreyImage) => {
  const w = Math.round(img.width * share), h = Math.round(img.height * share), x0 = Math.round((img.width - w) / 2), y0 = Math.round((img.height - h) / 2);
  return { img: resize(img, x0, y0, w, h, z), toQuery: back(z, x0, y0) };
};
const VIEWS: View[] = (argValue('--views') ?? 'w2l4,w2l2,w2l1,w15l2,c8l1,c7l1,c6l1,c5l1').split(',').map((k) => {
  const m = /^([wc])(\d+)l(\d)(?:n(\d+))?$/.exec(k)!;
  const levels = Number(m[3]), n = m[4] ? Number(m[4]) : 1000;
  if (m[1] === 'w') { const z = Number(m[2]) / (m[2]!.length > 1 ? 10 : 1); return { name: k, levels, n, make: whole(z) }; }
  return { name: k, levels, n, make: centre(Number(m[2]) / 10, 2) };
});

function mul3(a: number[], b: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[i * 3 + j]! += a[i * 3 + k]! * b[k * 3 + j]!;
  return o;
}

const rows: Record<string, unknown>[] = [];
let cell = -1;
for (const condition of PHONE_CONDITIONS) {
  for (const strength of STRENGTHS) {
    cell++;
    if (only && !only.includes(condition)) continue;
    const ctx = context(cv, 2900 + cell, backgrounds);
    for (const [gi, gift] of gifts.entries()) {
      if (gift.startsWith('cover:') && gi % step !== 0) continue;
      if (gift.startsWith('object:') && gi % 2 !== 0) continue;
      const sources = [refOf.get(gift)!, ...(photosOf.get(gift) ?? []).sort()];
      const source = sources[(gi + cell) % sources.length]!;
      const hc = await phoneCase(ctx, { path: source, gift }, condition, strength);
      const q = await extractQuery(hc.jpeg);
      const img = await decodeGrey(hc.jpeg, CONFIG.querySide);
      const views = VIEWS.map((v) => {
        const c0 = process.cpuUsage();
        const made = v.make(img);
        const f = grey(made.img, v.levels, v.n);
        return { name: v.name, f, toQuery: made.toQuery, ms: cpu(c0) };
      });
      const others = refPaths.filter((r) => giftOf(r) !== gift && giftOf(r) !== hc.backgroundGift);
      const against = [refOf.get(gift)!, ...Array.from({ length: nImp }, (_, k) => others[(gi * 7 + cell * 5 + k * Math.floor(others.length / nImp)) % others.length]!)];
      for (const ref of against) {
        const rf = refs.get(ref)!;
        const rg = layer(rf, 0);
        const e = compare(q, rf);
        const row: Record<string, unknown> = { condition, strength, gift, kind: kindOf.get(gift), genuine: giftOf(ref) === gift, first: e.firstLook ?? e.inliers, second: e.secondLook ?? null };
        for (const v of views) {
          const c0 = process.cpuUsage();
          const z = ev(v.f, rg);
          let s2 = null as number | null;
          if (z.map && z.inliers >= 6) s2 = secondLookAt(img, rg, mul3(v.toQuery, z.map)).inliers;
          row[v.name] = z.inliers;
          row[`${v.name} +2nd`] = s2;
          row[`${v.name} ms`] = v.ms + cpu(c0);
        }
        rows.push(row);
      }
    }
    writeFileSync(join(outDir, 'rows.json'), JSON.stringify(rows));
    console.error(`${condition} ${strength} done`);
  }
}

const BAR = CONFIG.minInliers, SBAR = CONFIG.secondLookBar, ZBAR = CONFIG.zoomLookBar;
const shipped = (r: Record<string, unknown>) => Math.max(r.first as number, (r.second as number | null) !== null && (r.second as number) >= SBAR && (r.first as number) >= 6 ? (r.second as number) : 0);
const withView = (r: Record<string, unknown>, v: string, zbar: number) => {
  const z = r[v] as number, s2 = r[`${v} +2nd`] as number | null;
  return Math.max(shipped(r) >= BAR ? shipped(r) : 0, z >= zbar ? z : 0, s2 !== null && s2 >= zbar ? s2 : 0);
};
for (const c of PHONE_CONDITIONS) for (const s of STRENGTHS) {
  const sel = rows.filter((r) => r.condition === c && r.strength === s);
  if (!sel.length) continue;
  const gen = sel.filter((r) => r.genuine), imp = sel.filter((r) => !r.genuine);
  const parts = [`${c} / ${s}: before 052 ${gen.filter((r) => shipped(r) >= BAR).length}/${gen.length} (imp max first ${Math.max(...imp.map((r) => r.first as number))})`];
  for (const v of VIEWS) {
    parts.push(`${v.name}: ${gen.filter((r) => withView(r, v.name, ZBAR) >= BAR).length} (imp max ${Math.max(...imp.map((r) => r[v.name] as number))}, +2nd ${Math.max(0, ...imp.map((r) => (r[`${v.name} +2nd`] as number | null) ?? 0))})`);
  }
  console.log(parts.join('; '));
}
for (const v of VIEWS) {
  const ms = rows.map((r) => r[`${v.name} ms`] as number).sort((a, b) => a - b);
  console.log(`${v.name}: CPU per comparison median ${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms`);
}
