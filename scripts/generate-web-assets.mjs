#!/usr/bin/env node
/**
 * Makes the web app's binary assets from our own drawings, so they can be regenerated and reviewed as code:
 *   public/favicon.{svg,ico}, public/icons/*.png app icons (any + maskable) for the web manifest
 *   public/demo-media/birthday-gift.jpg          the demo gift visitors show on another screen or print
 *   public/demo-media/birthday-message.mp4       the demo message (animated card with a melody), + poster
 * Usage: node scripts/generate-web-assets.mjs   (needs sharp from node_modules and ffmpeg on PATH)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pub = join(root, 'apps/web/public');
mkdirSync(join(pub, 'icons'), { recursive: true });
mkdirSync(join(pub, 'demo-media'), { recursive: true });

// ---------- icons ----------
const BRAND = '#d9421e';
const mark = (scale) => `
  <g transform="translate(256 256) scale(${scale}) translate(-24 -24)">
    <path d="M9 17v-5a3 3 0 0 1 3-3h5M31 9h5a3 3 0 0 1 3 3v5M39 31v5a3 3 0 0 1-3 3h-5M17 39h-5a3 3 0 0 1-3-3v-5"
      fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>
    <rect x="15" y="22" width="18" height="12" rx="1.5" fill="#fff"/>
    <rect x="14" y="18.5" width="20" height="4.5" rx="1.2" fill="#fff"/>
    <path d="M24 18.5V34" stroke="${BRAND}" stroke-width="2.4"/>
    <path d="M24 18.5c-2.6-4.2-7.2-4.6-7.2-2 0 1.8 3.6 2 7.2 2Zm0 0c2.6-4.2 7.2-4.6 7.2-2 0 1.8-3.6 2-7.2 2Z" fill="#fff"/>
  </g>`;
// "any": rounded tile filling the canvas. "maskable": full bleed, the mark inside the 80 % safe circle.
const anyIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="112" fill="${BRAND}"/>${mark(10.6)}</svg>`;
const maskableIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" fill="${BRAND}"/>${mark(7.4)}</svg>`;
writeFileSync(join(pub, 'favicon.svg'), anyIcon);
const png = (svg, size, file) => sharp(Buffer.from(svg)).resize(size, size).png({ compressionLevel: 9 }).toFile(join(pub, 'icons', file));
await png(anyIcon, 192, 'icon-192.png');
await png(anyIcon, 512, 'icon-512.png');
await png(maskableIcon, 512, 'icon-maskable-512.png');
await png(maskableIcon, 180, 'apple-touch-icon.png');
// favicon.ico for browsers that ask for it regardless of <link rel="icon">: one 32x32 PNG inside an ICO header.
const ico32 = await sharp(Buffer.from(anyIcon)).resize(32, 32).png().toBuffer();
const icoHeader = Buffer.alloc(22);
icoHeader.writeUInt16LE(0, 0); // reserved
icoHeader.writeUInt16LE(1, 2); // type: icon
icoHeader.writeUInt16LE(1, 4); // one image
icoHeader.writeUInt8(32, 6); // width
icoHeader.writeUInt8(32, 7); // height
icoHeader.writeUInt16LE(1, 10); // colour planes
icoHeader.writeUInt16LE(32, 12); // bits per pixel
icoHeader.writeUInt32LE(ico32.length, 14);
icoHeader.writeUInt32LE(22, 18); // offset of the PNG data
writeFileSync(join(pub, 'favicon.ico'), Buffer.concat([icoHeader, ico32]));

// ---------- demo gift ----------
// Feature matching needs texture that does not repeat: seeded random confetti of many shapes, sizes and colours.
let seed = 20261121;
const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const pick = (a) => a[Math.floor(rand() * a.length)];
const COLOURS = ['#fff7ed', '#fde68a', '#a7f3d0', '#bfdbfe', '#fbcfe8', '#1e3a8a', '#065f46', '#ffffff', '#fcd34d'];
const GLYPHS = ['M', 'S', '★', '♥', '✦', 'A', 'Z', '8', '3', '&amp;', '?', '#'];
function confetti(count, w, h) {
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = rand() * w, y = rand() * h, r = 6 + rand() * 22, rot = Math.round(rand() * 360), c = pick(COLOURS);
    switch (Math.floor(rand() * 6)) {
      case 0: out += `<circle cx="${x}" cy="${y}" r="${r / 2}" fill="${c}"/>`; break;
      case 1: out += `<rect x="${x}" y="${y}" width="${r}" height="${r / 2.5}" fill="${c}" transform="rotate(${rot} ${x} ${y})"/>`; break;
      case 2: out += `<path d="M${x} ${y - r / 1.6}L${x + r / 1.8} ${y + r / 2.4}H${x - r / 1.8}Z" fill="${c}" transform="rotate(${rot} ${x} ${y})"/>`; break;
      case 3: out += `<path d="M${x - r} ${y}q${r / 2} ${-r / 1.5} ${r} 0t${r} 0" fill="none" stroke="${c}" stroke-width="${2 + r / 8}" stroke-linecap="round" transform="rotate(${rot} ${x} ${y})"/>`; break;
      case 4: out += `<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${r * 1.6}" fill="${c}" transform="rotate(${rot} ${x} ${y})">${pick(GLYPHS)}</text>`; break;
      default: out += `<circle cx="${x}" cy="${y}" r="${r / 2}" fill="none" stroke="${c}" stroke-width="${2 + r / 10}"/>`;
    }
  }
  return out;
}
const giftSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 1200" width="1200" height="1200">
  <defs>
    <clipPath id="box"><rect x="190" y="430" width="820" height="660" rx="26"/></clipPath>
    <clipPath id="lid"><rect x="150" y="330" width="900" height="140" rx="24"/></clipPath>
    <linearGradient id="table" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f5efe6"/><stop offset="1" stop-color="#e7dccb"/></linearGradient>
    <linearGradient id="gold" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#d4a017"/><stop offset=".5" stop-color="#fde68a"/><stop offset="1" stop-color="#b7791f"/></linearGradient>
  </defs>
  <rect width="1200" height="1200" fill="url(#table)"/>
  <ellipse cx="600" cy="1110" rx="470" ry="40" fill="#7c2d12" opacity=".18"/>
  <g clip-path="url(#box)"><rect x="190" y="430" width="820" height="660" fill="#c2410c"/>${confetti(950, 1200, 1200)}
    <rect x="190" y="430" width="820" height="660" fill="#000" opacity=".08"/></g>
  <g clip-path="url(#lid)"><rect x="150" y="330" width="900" height="140" fill="#b91c1c"/>${confetti(300, 1200, 600)}</g>
  <rect x="150" y="450" width="900" height="20" fill="#000" opacity=".15"/>
  <rect x="540" y="330" width="120" height="760" fill="url(#gold)"/>
  <g stroke="#92400e" stroke-width="3" opacity=".55">${Array.from({ length: 38 }, (_, i) => `<path d="M540 ${340 + i * 20}l120 12"/>`).join('')}</g>
  <rect x="190" y="700" width="820" height="100" fill="url(#gold)"/>
  <g stroke="#92400e" stroke-width="3" opacity=".55">${Array.from({ length: 41 }, (_, i) => `<path d="M${196 + i * 20} 700l14 100"/>`).join('')}</g>
  <path d="M600 330C520 170 330 150 350 270c14 90 170 84 250 60z" fill="#fcd34d" stroke="#92400e" stroke-width="8"/>
  <path d="M600 330C680 170 870 150 850 270c-14 90-170 84-250 60z" fill="#fde68a" stroke="#92400e" stroke-width="8"/>
  <path d="M420 230c60 10 120 50 170 96M780 230c-60 10-120 50-170 96" stroke="#b45309" stroke-width="6" fill="none"/>
  <path d="M590 340c-30 80-90 150-150 190M610 340c30 80 90 150 150 190" stroke="#d97706" stroke-width="34" stroke-linecap="round" fill="none"/>
  <ellipse cx="600" cy="325" rx="58" ry="46" fill="#f59e0b" stroke="#92400e" stroke-width="8"/>
  <g transform="translate(700 860) rotate(-9)">
    <path d="M0 0h250l50 60-50 60H0z" fill="#fffdf5" stroke="#57534e" stroke-width="5"/>
    <circle cx="250" cy="60" r="12" fill="none" stroke="#57534e" stroke-width="5"/>
    <text x="22" y="52" font-family="DejaVu Serif, serif" font-style="italic" font-size="38" fill="#1c1917">For Sam</text>
    <text x="22" y="96" font-family="DejaVu Sans, sans-serif" font-size="24" fill="#7c2d12">Happy birthday!</text>
  </g>
  <text x="60" y="110" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="44" fill="#7c2d12">GiftLens demo gift</text>
  <text x="60" y="160" font-family="DejaVu Sans, sans-serif" font-size="28" fill="#57534e">Point the GiftLens demo camera at this picture</text>
</svg>`;
await sharp(Buffer.from(giftSvg)).jpeg({ quality: 86, mozjpeg: true }).toFile(join(pub, 'demo-media/birthday-gift.jpg'));

// ---------- demo message ----------
const tmp = mkdtempSync(join(tmpdir(), 'giftlens-assets-'));
try {
  const bg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c2d12"/><stop offset=".55" stop-color="#c2410c"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
    <rect width="1280" height="720" fill="url(#g)"/>${confetti(140, 1280, 720).replaceAll('#1e3a8a', '#fde68a').replaceAll('#065f46', '#fff7ed')}
    <rect width="1280" height="720" fill="#1c1917" opacity=".35"/></svg>`;
  await sharp(Buffer.from(bg)).png().toFile(join(tmp, 'bg.png'));
  const font = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
  const serif = '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf';
  const line = (text, y, size, from, file = font) =>
    `drawtext=fontfile=${file}:text='${text}':fontcolor=white:fontsize=${size}:x=(w-text_w)/2:y=${y}` +
    `:alpha='if(lt(t,${from}),0,min(1,(t-${from})/0.6))':shadowcolor=black@0.35:shadowx=2:shadowy=3`;
  const filter = [
    `zoompan=z='1+0.0009*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1280x720:fps=30`,
    line('Hi Sam!', 170, 96, 0.3),
    line('Happy birthday', 300, 72, 1.6),
    line('This message was hidden inside your gift.', 420, 38, 3.2),
    line('Love, Maya', 520, 52, 5, serif),
    line('GiftLens demo', 640, 26, 6.5),
    'format=yuv420p',
  ].join(',');
  // "Happy Birthday" on soft sine tones with a short fade per note.
  const A4 = 440, note = (n) => A4 * 2 ** (n / 12);
  const G4 = note(-2), A = note(0), B4 = note(2), C5 = note(3), D5 = note(5);
  const melody = [[G4, 0.45], [G4, 0.15], [A, 0.6], [G4, 0.6], [C5, 0.6], [B4, 1.2], [G4, 0.45], [G4, 0.15], [A, 0.6], [G4, 0.6], [D5, 0.6], [C5, 1.4]];
  let t = 0.4, expr = '0';
  for (const [f, d] of melody) {
    const env = `sin(PI*min(1,(t-${t.toFixed(2)})/${d}))`;
    expr += `+between(t,${t.toFixed(2)},${(t + d).toFixed(2)})*${env}*(0.32*sin(2*PI*${f.toFixed(2)}*t)+0.08*sin(4*PI*${f.toFixed(2)}*t))`;
    t += d;
  }
  execFileSync('ffmpeg', [
    '-y', '-loglevel', 'error',
    '-loop', '1', '-framerate', '30', '-i', join(tmp, 'bg.png'),
    '-f', 'lavfi', '-i', `aevalsrc='${expr}':s=44100:d=9`,
    '-t', '9', '-filter_complex', `[0:v]${filter}[v]`, '-map', '[v]', '-map', '1:a',
    '-c:v', 'libx264', '-preset', 'slow', '-crf', '30', '-profile:v', 'main', '-movflags', '+faststart',
    '-c:a', 'aac', '-b:a', '96k',
    join(pub, 'demo-media/birthday-message.mp4'),
  ]);
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-ss', '7', '-i', join(pub, 'demo-media/birthday-message.mp4'),
    '-frames:v', '1', '-q:v', '5', join(pub, 'demo-media/birthday-poster.jpg')]);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log('web assets written to apps/web/public');
