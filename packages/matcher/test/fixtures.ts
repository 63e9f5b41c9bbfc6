import sharp from 'sharp';
import { rng } from '../src/cli/rng.ts';

/** A busy "gift box" picture: random shapes and words, distinct per seed. */
export function posterSvg(seed: number, size = 320): string {
  const r = rng(seed);
  const c = () => `rgb(${Math.floor(r() * 255)},${Math.floor(r() * 255)},${Math.floor(r() * 255)})`;
  const parts: string[] = [`<rect width="${size}" height="${size}" fill="${c()}"/>`];
  for (let i = 0; i < 60; i++) {
    const x = r() * size, y = r() * size, w = 8 + r() * 50, h = 8 + r() * 50;
    const k = r();
    if (k < 0.35) parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${c()}" transform="rotate(${r() * 90} ${x} ${y})"/>`);
    else if (k < 0.65) parts.push(`<ellipse cx="${x}" cy="${y}" rx="${w / 2}" ry="${h / 3}" fill="${c()}"/>`);
    else parts.push(`<polygon points="${x},${y} ${x + w},${y + h / 2} ${x + w / 3},${y + h}" fill="${c()}"/>`);
  }
  const words = ['GIFT', 'LENS', 'TOY', 'BOX', 'JAZZ', 'MOON', 'KIWI', 'ZEST'];
  for (let i = 0; i < 10; i++) {
    parts.push(`<text x="${r() * size * 0.8}" y="${20 + r() * size * 0.9}" font-size="${12 + r() * 26}" font-family="sans-serif" font-weight="bold" fill="${c()}">${words[Math.floor(r() * words.length)]}${Math.floor(r() * 99)}</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">${parts.join('')}</svg>`;
}

export async function poster(seed: number, size = 320): Promise<Buffer> {
  return sharp(Buffer.from(posterSvg(seed, size))).png().toBuffer();
}

/** The poster photographed: rotated, shrunk, on a plain table, JPEG-compressed. */
export async function photoOf(image: Buffer, angle = 15, scale = 0.75): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = Math.round((meta.width ?? 320) * scale);
  const turned = await sharp(image).resize(w).rotate(angle, { background: '#8a8070' }).png().toBuffer();
  const tm = await sharp(turned).metadata();
  return sharp({ create: { width: (tm.width ?? 0) + 80, height: (tm.height ?? 0) + 60, channels: 3, background: '#8a8070' } })
    .composite([{ input: turned, left: 40, top: 30 }])
    .jpeg({ quality: 50 })
    .toBuffer();
}

export async function plain(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#d0d4d8' } }).png().toBuffer();
}
