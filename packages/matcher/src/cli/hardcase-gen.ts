/**
 * Hard-case generator (deterministic, seeded): each reference of the data set is composited into a scene — a real
 * background (the data set's object photos, never of the same object) or a synthetic one (a table top of random
 * shapes and grain) — covering 10–40% of the frame's area, under one condition (perspective, glare and specular
 * highlights, a colour cast, low light with sensor noise, motion blur, or two of them at once), then compressed
 * exactly as the recipient's browser does (decode.ts browserCompress: fit 600x600, JPEG 0.5).
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { baselinePlace } from '../baseline.ts';
import { type CV } from '../cv.ts';
import { browserCompress } from '../decode.ts';
import { rng } from './rng.ts';
import { warpTo } from './warp.ts';

export const FRAME = { width: 1280, height: 960 };

export const CONDITIONS = ['size only', 'perspective', 'glare', 'colour cast', 'low light', 'motion blur', 'two at once'] as const;
export type Condition = (typeof CONDITIONS)[number];
const SINGLE: Condition[] = ['perspective', 'glare', 'colour cast', 'low light', 'motion blur'];

export interface HardCase {
  condition: Condition;
  /** share of the frame's area the gift covers before any tilt, 0.10..0.40 */
  area: number;
  background: string;
  /** the gift shown in the background photo, if any: comparing with its reference is not an impostor test */
  backgroundGift?: string;
  /** the camera frame before the browser's compression (PNG, FRAME size): for comparing capture recipes */
  scene: Buffer;
  /** what the browser sends */
  jpeg: Buffer;
  detail: string;
}

interface Ctx {
  cv: CV;
  rand: () => number;
  backgrounds: { name: string; path: string; gift: string }[];
}

const between = (r: () => number, a: number, b: number): number => a + (b - a) * r();

async function syntheticBackground(r: () => number): Promise<Buffer> {
  const { width: W, height: H } = FRAME;
  const hue = Math.floor(r() * 360);
  const shapes: string[] = [];
  const n = 6 + Math.floor(r() * 14);
  for (let i = 0; i < n; i++) {
    const fill = `hsl(${Math.floor(r() * 360)},${Math.floor(between(r, 5, 60))}%,${Math.floor(between(r, 20, 80))}%)`;
    const x = Math.floor(r() * W), y = Math.floor(r() * H);
    const kind = r();
    if (kind < 0.4) shapes.push(`<rect x="${x}" y="${y}" width="${Math.floor(between(r, 40, 400))}" height="${Math.floor(between(r, 40, 300))}" fill="${fill}" transform="rotate(${Math.floor(r() * 90)} ${x} ${y})"/>`);
    else if (kind < 0.7) shapes.push(`<ellipse cx="${x}" cy="${y}" rx="${Math.floor(between(r, 20, 200))}" ry="${Math.floor(between(r, 20, 200))}" fill="${fill}"/>`);
    else shapes.push(`<line x1="${x}" y1="${y}" x2="${Math.floor(r() * W)}" y2="${Math.floor(r() * H)}" stroke="${fill}" stroke-width="${Math.floor(between(r, 2, 30))}"/>`);
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="${r().toFixed(2)}" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue},25%,${Math.floor(between(r, 30, 70))}%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},20%,${Math.floor(between(r, 20, 60))}%)"/></linearGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#g)"/>${shapes.join('')}</svg>`;
  // wood/fabric-like grain
  const grain = noise(r, W, H, between(r, 4, 12));
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  return sharp(addInto(base, grain), { raw: { width: W, height: H, channels: 3 } }).blur(0.6).png().toBuffer();
}

/** zero-mean gaussian noise, 3 channels, from the seeded generator (sharp's own noise is not seeded) */
function noise(r: () => number, w: number, h: number, sigma: number): Int16Array {
  const out = new Int16Array(w * h * 3);
  for (let i = 0; i < out.length; i += 2) {
    const u = Math.max(1e-9, r()), v = r();
    const m = sigma * Math.sqrt(-2 * Math.log(u));
    out[i] = Math.round(m * Math.cos(2 * Math.PI * v));
    if (i + 1 < out.length) out[i + 1] = Math.round(m * Math.sin(2 * Math.PI * v));
  }
  return out;
}

function addInto(px: Buffer, n: Int16Array): Buffer {
  const out = Buffer.alloc(px.length);
  for (let i = 0; i < px.length; i++) out[i] = Math.max(0, Math.min(255, px[i]! + n[i]!));
  return out;
}

/** corners of the gift in the frame: scaled to `area`, rotated in plane, tilted in 3-D about an in-plane axis */
function placeGift(r: () => number, w: number, h: number, area: number, tiltDeg: number, rotDeg: number): number[] {
  const { width: W, height: H } = FRAME;
  const s = Math.sqrt((area * W * H) / (w * h));
  const f = 1.2 * Math.max(W, H);
  const th = (rotDeg * Math.PI) / 180, phi = r() * Math.PI, t = (tiltDeg * Math.PI) / 180;
  const pts = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ].map(([x, y]) => {
    let X = x! * s * Math.cos(th) - y! * s * Math.sin(th);
    let Y = x! * s * Math.sin(th) + y! * s * Math.cos(th);
    // tilt about the axis at angle phi: rotate by -phi, tilt about x, rotate back
    const a = X * Math.cos(-phi) - Y * Math.sin(-phi), b = X * Math.sin(-phi) + Y * Math.cos(-phi);
    const b2 = b * Math.cos(t), Z = b * Math.sin(t);
    X = a * Math.cos(phi) - b2 * Math.sin(phi);
    Y = a * Math.sin(phi) + b2 * Math.cos(phi);
    return [(f * X) / (f + Z), (f * Y) / (f + Z)];
  });
  const xs = pts.map((p) => p[0]!), ys = pts.map((p) => p[1]!);
  const hw = (Math.max(...xs) - Math.min(...xs)) / 2, hh = (Math.max(...ys) - Math.min(...ys)) / 2;
  const cx = hw * 2 < W ? between(r, hw, W - hw) : W / 2;
  const cy = hh * 2 < H ? between(r, hh, H - hh) : H / 2;
  return pts.flatMap(([x, y]) => [x! + cx, y! + cy]);
}

function glareSvg(r: () => number, quad: number[]): Buffer {
  const { width: W, height: H } = FRAME;
  const xs = [quad[0]!, quad[2]!, quad[4]!, quad[6]!], ys = [quad[1]!, quad[3]!, quad[5]!, quad[7]!];
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  const gw = x1 - x0, gh = y1 - y0;
  const cx = between(r, x0 + gw * 0.2, x1 - gw * 0.2), cy = between(r, y0 + gh * 0.2, y1 - gh * 0.2);
  const rx = gw * between(r, 0.15, 0.35), ry = gh * between(r, 0.1, 0.3);
  const peak = between(r, 0.6, 0.95).toFixed(2);
  const spots: string[] = [];
  for (let i = 0, n = 2 + Math.floor(r() * 3); i < n; i++) {
    spots.push(
      `<ellipse cx="${between(r, x0, x1).toFixed(0)}" cy="${between(r, y0, y1).toFixed(0)}" rx="${(gw * between(r, 0.01, 0.04)).toFixed(1)}" ry="${(gh * between(r, 0.005, 0.02)).toFixed(1)}" fill="white" fill-opacity="0.95" transform="rotate(${Math.floor(r() * 180)} ${cx.toFixed(0)} ${cy.toFixed(0)})"/>`,
    );
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><radialGradient id="g"><stop offset="0" stop-color="white" stop-opacity="${peak}"/>` +
      `<stop offset="0.5" stop-color="white" stop-opacity="${(Number(peak) * 0.6).toFixed(2)}"/><stop offset="1" stop-color="white" stop-opacity="0"/></radialGradient></defs>` +
      `<ellipse cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" rx="${rx.toFixed(0)}" ry="${ry.toFixed(0)}" fill="url(#g)" transform="rotate(${Math.floor(between(r, -40, 40))} ${cx.toFixed(0)} ${cy.toFixed(0)})"/>${spots.join('')}</svg>`,
  );
}

function motionKernel(r: () => number): { width: number; height: number; kernel: number[]; scale: number } {
  const len = 2 * Math.floor(between(r, 3, 8)) + 1; // 7..17 px at 1280 px, 3..8 px once the browser fits it to 600
  const ang = r() * Math.PI;
  const k = new Array<number>(len * len).fill(0);
  const c = (len - 1) / 2;
  for (let i = 0; i <= 4 * len; i++) {
    const t = (i / (4 * len) - 0.5) * (len - 1);
    const x = Math.round(c + t * Math.cos(ang)), y = Math.round(c + t * Math.sin(ang));
    k[y * len + x] = 1;
  }
  return { width: len, height: len, kernel: k, scale: k.reduce((a, b) => a + b, 0) };
}

/** A scene's background: half the time a real photo of another gift (never `gift`), else `synthetic`'s table top. */
async function pickBackground(ctx: Ctx, gift: string, synthetic: (r: () => number) => Promise<Buffer>): Promise<{ background: string; backgroundGift?: string; bg: Buffer }> {
  const r = ctx.rand;
  const choices = ctx.backgrounds.filter((b) => b.gift !== gift);
  if (r() < 0.5 && choices.length) {
    const b = choices[Math.floor(r() * choices.length)]!;
    const bg = await sharp(b.path).rotate().resize(FRAME.width, FRAME.height, { fit: 'cover' }).removeAlpha().png().toBuffer();
    return { background: b.name, backgroundGift: b.gift, bg };
  }
  return { background: 'synthetic', bg: await synthetic(r) };
}

export interface GiftImage {
  path: string;
  gift: string;
  /** the gift's reference photo, where `path` is another photo of it: a condition on the gift's surface is put there */
  reference?: string;
}

/**
 * One hard case of `ref` under `condition`. `rand` decides everything (pose, size, background, strength), so a given
 * seed always gives the same images.
 */
export async function hardCase(ctx: Ctx, ref: GiftImage, condition: Condition): Promise<HardCase> {
  const r = ctx.rand;
  const { width: W, height: H } = FRAME;
  const area = between(r, 0.1, 0.4);
  const conds: Condition[] =
    condition === 'two at once'
      ? (() => {
          const a = Math.floor(r() * SINGLE.length);
          const b = (a + 1 + Math.floor(r() * (SINGLE.length - 1))) % SINGLE.length;
          return [SINGLE[a]!, SINGLE[b]!];
        })()
      : [condition];
  const has = (c: Condition) => conds.includes(c);
  const tilt = has('perspective') ? between(r, 30, 50) : between(r, 0, 15);
  const rot = has('perspective') ? between(r, -180, 180) : between(r, -15, 15);
  const { background, backgroundGift, bg } = await pickBackground(ctx, ref.gift, syntheticBackground);
  const g = await sharp(ref.path).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const quad = placeGift(r, g.info.width, g.info.height, area, tilt, rot);
  const warped = await warpTo(ctx.cv, { data: g.data, width: g.info.width, height: g.info.height, channels: 4 }, quad, W, H, [0, 0, 0, 0]);
  const layers: sharp.OverlayOptions[] = [{ input: warped }];
  const detail: string[] = [`tilt ${tilt.toFixed(0)}°`, `rotation ${rot.toFixed(0)}°`];
  if (has('glare')) {
    layers.push({ input: glareSvg(r, quad) });
    detail.push('glare');
  }
  let img = await sharp(bg).composite(layers).removeAlpha().raw().toBuffer();
  const raw = { raw: { width: W, height: H, channels: 3 as const } };
  if (has('colour cast')) {
    const casts = [
      [1, 0.78, 0.5], // tungsten
      [0.72, 0.86, 1], // shade / daylight LED
      [0.86, 1, 0.78], // fluorescent
      [1, 0.8, 0.92], // magenta LED
    ];
    const c = casts[Math.floor(r() * casts.length)]!;
    const k = between(r, 0.6, 1);
    const m = c.map((v) => 1 - k * (1 - v));
    img = await sharp(img, raw).linear(m, [0, 0, 0]).raw().toBuffer();
    detail.push(`cast ${m.map((v) => v.toFixed(2)).join('/')}`);
  }
  if (has('low light')) {
    const k = between(r, 0.12, 0.3);
    img = await sharp(img, raw).linear(k, 0).raw().toBuffer();
    img = addInto(img, noise(r, W, H, between(r, 2, 5)));
    detail.push(`light ${(k * 100).toFixed(0)}%`);
  }
  if (has('motion blur')) {
    const k = motionKernel(r);
    img = await sharp(img, raw).convolve(k).raw().toBuffer();
    detail.push(`motion ${k.width}px`);
  }
  const png = await sharp(img, raw).png({ compressionLevel: 1 }).toBuffer();
  return { condition, area, background, backgroundGift, scene: png, jpeg: await browserCompress(png), detail: detail.join(', ') };
}

export function context(cv: CV, seed: number, backgrounds: Ctx['backgrounds']): Ctx {
  return { cv, rand: rng(seed), backgrounds };
}

/**
 * The hard cases real phones take: what real phones took of gifts the engine had never seen and missed. Each condition
 * comes at three strengths. The middle one is the description; the other two sit one step either side of it,
 * so the table shows where recognition starts to fail, not just whether it does at one point. The steps are fixed
 * here, before any measurement, and were not moved after (decision 047):
 * - `small in frame`: the photo covers 16% / 10% / 6% of the frame's area (the issue: "about a tenth"; ×1.6 either
 *   side), anywhere in a cluttered scene (a real object photo of another gift, or a synthetic table top with twice the
 *   usual clutter), tilt and rotation up to 15°.
 * - `steep and upside down`: tilt 50° / 60° / 70° about a random axis (the issue: 60–70°) and rotation 180° ± 15°,
 *   the photo at 20–35% of the frame.
 * - `glare a third`: a burnt-out glossy reflection (white, opaque in its core, soft edge) over 20% / 33% / 45% of the
 *   gift (the issue: "a third"), placed anywhere on it, before the perspective; photo at 20–35%, tilt up to 25°. In a
 *   phone photo the reflection is on the gift's own surface, found through its reference (`glareOnGift`): until
 *   decision 054 it covered that share of the whole photo, so of a gift small in it half or all.
 * - `low-end phone`: the scene taken by a 640×480 / 480×360 / 352×288 sensor (a low-end phone's video frame: VGA,
 *   then the two next steps down), soft (Gaussian σ 0.7 / 1.0 / 1.4 sensor px), sensor noise σ 4 / 6 / 8 levels, its
 *   own JPEG at 70, tilt 30° / 40° / 50°; photo at 25–40% of the frame. The browser then fits it into 600×600
 *   without enlarging, so the server gets the sensor's size.
 * The source is any photo of the data set: its reference or one of its phone photos (which already show the gift with
 * its own surroundings, light and angle, so a condition comes on top of a real photo's). Then the browser's
 * compression (fit 600×600, JPEG 0.5).
 */
export const PHONE_CONDITIONS = ['small in frame', 'steep and upside down', 'glare a third', 'low-end phone'] as const;
export type PhoneCondition = (typeof PHONE_CONDITIONS)[number];
export const STRENGTHS = ['mild', 'as reported', 'strong'] as const;
export type Strength = (typeof STRENGTHS)[number];

const STEP: Record<PhoneCondition, [number, number, number]> = {
  'small in frame': [0.16, 0.1, 0.06],
  'steep and upside down': [50, 60, 70],
  'glare a third': [0.2, 0.33, 0.45],
  'low-end phone': [640, 480, 352],
};

/** The strength's parameter (area share, tilt in degrees, glare share, sensor width) as the table prints it. */
export function strengthValue(condition: PhoneCondition, strength: Strength): number {
  return STEP[condition][STRENGTHS.indexOf(strength)]!;
}

export interface PhoneCase {
  condition: PhoneCondition;
  strength: Strength;
  /** the photo's share of the frame's area before the tilt */
  area: number;
  background: string;
  backgroundGift?: string;
  /** what the camera saw, before the browser's compression (PNG, or the low-end phone's own JPEG) */
  frame: Buffer;
  jpeg: Buffer;
  detail: string;
}

/**
 * The next live frame of the same scene, ~400 ms later (LIVE_SCAN.intervalMs): the hand has moved a little (each
 * corner of the picture shifted by up to 1% of its width, i.e. a small shift, turn and tilt together) and the
 * sensor's noise is new (σ 3 levels), then the browser's compression. For measuring evidence pooled over frames.
 */
export async function nextFrame(ctx: Ctx, frame: Buffer): Promise<Buffer> {
  const r = ctx.rand;
  const img = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = img.info;
  const j = () => between(r, -0.01, 0.01) * w;
  const quad = [j(), j(), w + j(), j(), w + j(), h + j(), j(), h + j()];
  const moved = await warpTo(ctx.cv, { data: img.data, width: w, height: h, channels: 3 }, quad, w, h, [128, 128, 128, 0]);
  const px = await sharp(moved).removeAlpha().raw().toBuffer();
  const noisy = await sharp(addInto(px, noise(r, w, h, 3)), { raw: { width: w, height: h, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
  return browserCompress(noisy);
}

/** A glossy reflection over `share` of a w×h picture: an opaque white core with a soft edge (SVG, w×h). */
function glossSvg(r: () => number, w: number, h: number, share: number): Buffer {
  // an ellipse of aspect 1..2 whose area (where it is at least half opaque) is `share` of the picture
  const aspect = between(r, 1, 2);
  const half = Math.sqrt((share * w * h) / (Math.PI * aspect)); // semi-minor axis at half opacity
  const rx = half * aspect * 1.15, ry = half * 1.15; // the gradient reaches half opacity at ~87% of its radius
  const cx = between(r, 0.25 * w, 0.75 * w), cy = between(r, 0.25 * h, 0.75 * h);
  const rot = Math.floor(r() * 180);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><radialGradient id="g">` +
      `<stop offset="0" stop-color="white" stop-opacity="1"/><stop offset="0.7" stop-color="white" stop-opacity="0.97"/>` +
      `<stop offset="1" stop-color="white" stop-opacity="0"/></radialGradient></defs>` +
      `<ellipse cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" rx="${rx.toFixed(0)}" ry="${ry.toFixed(0)}" fill="url(#g)" transform="rotate(${rot} ${cx.toFixed(0)} ${cy.toFixed(0)})"/></svg>`,
  );
}

/** Side at which a phone photo and its reference are compared to find the gift's surface in the photo. */
const PLACE_SIDE = 1024;

/**
 * A glossy reflection over `share` of the gift's own surface in `source`, as a layer of the source photo's size.
 * In the gift's reference the gift is the picture, so the reflection is drawn on its pixels; in a phone photo (where
 * the gift may be a fraction of the frame) it is drawn on the reference's pixels, then carried onto the photo by the
 * homography the textbook recipe finds between them (baselinePlace, 20+ inliers), so it covers `share` of the gift
 * in perspective, not of the photo. Where no homography is found (a 3D gift seen from another side), it falls back
 * to `share` of the photo and says so.
 */
export async function glareOnGift(ctx: Ctx, source: GiftImage, share: number): Promise<{ layer: Buffer; on: string }> {
  const r = ctx.rand;
  const m = await sharp(source.path).rotate().metadata();
  const w = m.autoOrient.width, h = m.autoOrient.height;
  if (!source.reference || source.reference === source.path) return { layer: glossSvg(r, w, h, share), on: 'the gift' };
  const placed = await baselinePlace(readFileSync(source.reference), readFileSync(source.path), PLACE_SIDE);
  if (!placed) return { layer: glossSvg(r, w, h, share), on: 'the photo (gift not placed)' };
  const { width: rw, height: rh } = placed.reference;
  const k = w / placed.photo.width; // decoded photo pixels -> the photo's own
  const M = placed.map;
  const corners = [[0, 0], [rw, 0], [rw, rh], [0, rh]].map(([x, y]) => {
    const z = M[6]! * x! + M[7]! * y! + M[8]!;
    return { z, x: (k * (M[0]! * x! + M[1]! * y! + M[2]!)) / z, y: (k * (M[3]! * x! + M[4]! * y! + M[5]!)) / z };
  });
  // a model that folds the reference (a corner behind the camera, or a quad that is not convex) places nothing
  const turns = corners.map((a, i) => {
    const b = corners[(i + 1) % 4]!, c = corners[(i + 2) % 4]!;
    return Math.sign((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x));
  });
  if (corners.some((c) => c.z <= 0) || new Set(turns).size !== 1 || turns[0] === 0) return { layer: glossSvg(r, w, h, share), on: 'the photo (gift not placed)' };
  const quad = corners.flatMap((c) => [c.x, c.y]);
  const g = await sharp(glossSvg(r, rw, rh, share)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { layer: await warpTo(ctx.cv, { data: g.data, width: g.info.width, height: g.info.height, channels: 4 }, quad, w, h, [0, 0, 0, 0]), on: 'the gift' };
}

/** A busier synthetic table top: two layers of synthetic clutter blended. */
async function clutter(r: () => number): Promise<Buffer> {
  const { width: W, height: H } = FRAME;
  const a = await sharp(await syntheticBackground(r)).raw().toBuffer();
  const b = await sharp(await syntheticBackground(r)).raw().toBuffer();
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i]! + b[i]!) >> 1;
  return sharp(out, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
}

/** One hard case real phones take: `source` (any data-set photo of `source.gift`) under `condition` at `strength`. */
export async function phoneCase(ctx: Ctx, source: GiftImage, condition: PhoneCondition, strength: Strength): Promise<PhoneCase> {
  const r = ctx.rand;
  const { width: W, height: H } = FRAME;
  const v = strengthValue(condition, strength);
  const detail: string[] = [];
  let area: number, tilt: number, rot: number;
  switch (condition) {
    case 'small in frame':
      area = v;
      tilt = between(r, 0, 15);
      rot = between(r, -15, 15);
      break;
    case 'steep and upside down':
      area = between(r, 0.2, 0.35);
      tilt = v;
      rot = 180 + between(r, -15, 15);
      break;
    case 'glare a third':
      area = between(r, 0.2, 0.35);
      tilt = between(r, 0, 25);
      rot = between(r, -20, 20);
      break;
    case 'low-end phone':
      area = between(r, 0.25, 0.4);
      tilt = [30, 40, 50][STRENGTHS.indexOf(strength)]!;
      rot = between(r, -30, 30);
  }
  // background: a real photo of another gift, or a synthetic table top (busier for the small gift)
  const { background, backgroundGift, bg } = await pickBackground(ctx, source.gift, condition === 'small in frame' ? clutter : syntheticBackground);
  let gift = sharp(source.path).rotate().ensureAlpha();
  if (condition === 'glare a third') {
    const { layer, on } = await glareOnGift(ctx, source, v);
    gift = sharp(await sharp(source.path).rotate().ensureAlpha().composite([{ input: layer }]).png().toBuffer());
    detail.push(`glare over ${(v * 100).toFixed(0)}% of ${on}`);
  }
  const g = await gift.raw().toBuffer({ resolveWithObject: true });
  const quad = placeGift(r, g.info.width, g.info.height, area, tilt, rot);
  const warped = await warpTo(ctx.cv, { data: g.data, width: g.info.width, height: g.info.height, channels: 4 }, quad, W, H, [0, 0, 0, 0]);
  let frame = await sharp(bg).composite([{ input: warped }]).removeAlpha().png({ compressionLevel: 1 }).toBuffer();
  detail.unshift(`area ${(area * 100).toFixed(0)}%`, `tilt ${tilt.toFixed(0)}°`, `rotation ${rot.toFixed(0)}°`);
  if (condition === 'low-end phone') {
    const sw = v, sh = Math.round((v * 3) / 4);
    const sigma = [0.7, 1.0, 1.4][STRENGTHS.indexOf(strength)]!;
    const noiseSigma = [4, 6, 8][STRENGTHS.indexOf(strength)]!;
    const small = await sharp(frame).resize(sw, sh).blur(sigma).raw().toBuffer();
    frame = await sharp(addInto(small, noise(r, sw, sh, noiseSigma)), { raw: { width: sw, height: sh, channels: 3 } }).jpeg({ quality: 70 }).toBuffer();
    detail.push(`sensor ${sw}x${sh}, σ ${sigma}, noise ${noiseSigma}`);
  }
  return { condition, strength, area, background, backgroundGift, frame, jpeg: await browserCompress(frame), detail: detail.join(', ') };
}
