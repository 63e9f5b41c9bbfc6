/**
 * Hard-case generator (deterministic, seeded): each reference of the data set is composited into a scene — a real
 * background (the data set's object photos, never of the same object) or a synthetic one (a table top of random
 * shapes and grain) — covering 10–40% of the frame's area, under one condition (perspective, glare and specular
 * highlights, a colour cast, low light with sensor noise, motion blur, or two of them at once), then compressed
 * exactly as the recipient's browser does (decode.ts browserCompress: fit 600x600, JPEG 0.5).
 */
import sharp from 'sharp';
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

export interface GiftImage {
  path: string;
  gift: string;
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
  // background
  const choices = ctx.backgrounds.filter((b) => b.gift !== ref.gift);
  let background: string;
  let backgroundGift: string | undefined;
  let bg: Buffer;
  if (r() < 0.5 && choices.length) {
    const b = choices[Math.floor(r() * choices.length)]!;
    background = b.name;
    backgroundGift = b.gift;
    bg = await sharp(b.path).rotate().resize(W, H, { fit: 'cover' }).removeAlpha().png().toBuffer();
  } else {
    background = 'synthetic';
    bg = await syntheticBackground(r);
  }
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
