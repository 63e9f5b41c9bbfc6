/**
 * The figures behind the frame checks' thresholds (apps/web/src/camera/frame-checks.ts, decision 030).
 *
 *   GIFT_PHOTOS_DIR=/path/to/gift-photos npx tsx e2e/support/frame-check-figures.ts
 *
 * Every phone photo of the data set (covers/photos, objects) becomes the fake camera's frame (letterboxed into
 * 1280x720, one Y4M frame from ffmpeg, as camera.ts makes the clips), plain and degraded: dark (18% of the light,
 * with sensor noise), blurred (Gaussian, sigma 4 and 8 px at 1280: about 2 and 4 px of the 600 px scan), far (the
 * picture shrunk to 30% and 50% of the frame on a plain grey field). The grey plane is shrunk to CHECK_WIDTH by
 * averaging, as the browser's canvas does, and measured with the browser's own functions. Motion is measured
 * between a frame and the same frame moved by 1, 2 and 4 px at check size (8, 16, 32 px at 1280 between two
 * checks). It prints the hints each variant gets and percentiles of each measure.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  CHECK_WIDTH,
  frameHint,
  MAX_MOTION,
  measureFrame,
  MIN_BRIGHTNESS,
  MIN_CENTRE_COVERAGE,
  MIN_SHARPNESS,
  type FrameMetrics,
  type GreyFrame,
} from '../../apps/web/src/camera/frame-checks.ts';
import { FAKE_CAMERA_FRAME } from './camera.ts';
import { GIFT_PHOTOS_DIR } from './paths.ts';

const W = 1280;
const H = 720;

const VARIANTS: Record<string, string> = {
  sharp: FAKE_CAMERA_FRAME,
  dark: `${FAKE_CAMERA_FRAME},lutyuv=y=val*0.18,noise=alls=6:allf=t`,
  'blurred 4': `${FAKE_CAMERA_FRAME},gblur=sigma=4`,
  'blurred 8': `${FAKE_CAMERA_FRAME},gblur=sigma=8`,
  'far 30%': `${FAKE_CAMERA_FRAME},scale=iw*0.3:ih*0.3,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=0x808080`,
  'far 50%': `${FAKE_CAMERA_FRAME},scale=iw*0.5:ih*0.5,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=0x808080`,
};

/** The luma plane of the fake camera's frame of `photo` through `filter`. */
function cameraLuma(photo: string, filter: string): Uint8Array {
  const y4m = execFileSync(
    'ffmpeg',
    ['-loglevel', 'error', '-i', photo, '-vf', `${filter},format=yuv420p`, '-frames:v', '1', '-f', 'yuv4mpegpipe', '-'],
    { maxBuffer: 8 * 1024 * 1024 },
  );
  const start = y4m.indexOf('FRAME\n') + 'FRAME\n'.length;
  return new Uint8Array(y4m.buffer, y4m.byteOffset + start, W * H);
}

/** Shrinks the 1280x720 plane to CHECK_WIDTH by averaging blocks, moved `shift` pixels to the right. */
function shrink(luma: Uint8Array, shift = 0): GreyFrame {
  const f = W / CHECK_WIDTH;
  const width = CHECK_WIDTH;
  const height = Math.round(H / f);
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = Math.min(width - 1, Math.max(0, x - shift));
      let sum = 0;
      for (let dy = 0; dy < f; dy++) for (let dx = 0; dx < f; dx++) sum += luma[(y * f + dy) * W + sx * f + dx]!;
      grey[y * width + x] = Math.round(sum / (f * f));
    }
  }
  return { width, height, grey };
}

function photos(): string[] {
  const dirs = [join(GIFT_PHOTOS_DIR, 'covers/photos'), join(GIFT_PHOTOS_DIR, 'objects')];
  return dirs.flatMap((d) => {
    try {
      return readdirSync(d)
        .filter((n) => n.endsWith('.jpg'))
        .map((n) => join(d, n));
    } catch {
      return [];
    }
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const row = (name: string, xs: number[]) =>
  `  ${name.padEnd(12)} min ${pct(xs, 0).toFixed(3).padStart(9)}  p5 ${pct(xs, 5).toFixed(3).padStart(9)}  median ${pct(xs, 50).toFixed(3).padStart(9)}  p95 ${pct(xs, 95).toFixed(3).padStart(9)}  max ${pct(xs, 100).toFixed(3).padStart(9)}`;

const list = photos();
console.log(
  `${list.length} photos from ${GIFT_PHOTOS_DIR}; thresholds: brightness ≥ ${MIN_BRIGHTNESS}, sharpness ≥ ${MIN_SHARPNESS}, ` +
    `motion ≤ ${MAX_MOTION}, centre coverage ≥ ${MIN_CENTRE_COVERAGE}`,
);
const SHIFTS = [1, 2, 4];
const motion = SHIFTS.map(() => [] as number[]);
const byVariant: Record<string, FrameMetrics[]> = {};
for (const [variant, filter] of Object.entries(VARIANTS)) {
  const metrics: FrameMetrics[] = [];
  byVariant[variant] = metrics;
  const hints: Record<string, number> = { pass: 0, moreLight: 0, holdStill: 0, moveCloser: 0 };
  for (const photo of list) {
    const luma = cameraLuma(photo, filter);
    const frame = shrink(luma);
    const m = measureFrame(frame);
    metrics.push(m);
    hints[frameHint(m) ?? 'pass']!++;
    if (variant === 'sharp') SHIFTS.forEach((shift, i) => motion[i]!.push(measureFrame(shrink(luma, shift), frame).motion));
  }
  console.log(`${variant}: ${Object.entries(hints).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(row('brightness', metrics.map((m) => m.brightness)));
  console.log(row('texture', metrics.map((m) => m.texture)));
  console.log(row('sharpness', metrics.map((m) => m.sharpness)));
  console.log(row('coverage', metrics.map((m) => m.centreCoverage)));
}
console.log(`motion of the sharp frames moved at check size (hold still above ${MAX_MOTION}):`);
SHIFTS.forEach((shift, i) => console.log(row(`${shift} px`, motion[i]!)));

/**
 * Do bars chosen this way hold on gifts they were not chosen on? Leave-gifts-out: the gifts (a cover's four photos,
 * an object's four views) in FOLDS groups; for each, the bar is put halfway between the worst genuine value and the
 * best degraded one of the other gifts, and the left-out gifts' frames are judged by it.
 */
const FOLDS = 5;
const giftOf = (photo: string) => basename(photo).split('-')[0]!;
const gifts = [...new Set(list.map(giftOf))];
const fold = list.map((photo) => gifts.indexOf(giftOf(photo)) % FOLDS);
const CHECKS: { name: string; genuine: number[]; degraded: number[]; higherIsGood: boolean; shipped: number }[] = [
  { name: 'brightness', genuine: byVariant.sharp!.map((m) => m.brightness), degraded: byVariant.dark!.map((m) => m.brightness), higherIsGood: true, shipped: MIN_BRIGHTNESS },
  { name: 'sharpness', genuine: byVariant.sharp!.map((m) => m.sharpness), degraded: byVariant['blurred 8']!.map((m) => m.sharpness), higherIsGood: true, shipped: MIN_SHARPNESS },
  { name: 'coverage', genuine: byVariant.sharp!.map((m) => m.centreCoverage), degraded: byVariant['far 30%']!.map((m) => m.centreCoverage), higherIsGood: true, shipped: MIN_CENTRE_COVERAGE },
  { name: 'motion', genuine: motion[0]!, degraded: motion[2]!, higherIsGood: false, shipped: MAX_MOTION },
];
console.log(`leave-gifts-out (${gifts.length} gifts in ${FOLDS} folds; bar halfway between the training gifts' worst genuine and best degraded frame):`);
for (const c of CHECKS) {
  const sign = c.higherIsGood ? 1 : -1;
  const bars: number[] = [];
  let heldBack = 0;
  let letThrough = 0;
  for (let f = 0; f < FOLDS; f++) {
    const train = (xs: number[]) => xs.filter((_, i) => fold[i] !== f).map((x) => sign * x);
    const bar = sign * ((Math.min(...train(c.genuine)) + Math.max(...train(c.degraded))) / 2);
    bars.push(bar);
    c.genuine.forEach((x, i) => fold[i] === f && sign * x < sign * bar && heldBack++);
    c.degraded.forEach((x, i) => fold[i] === f && sign * x >= sign * bar && letThrough++);
  }
  console.log(
    `  ${c.name.padEnd(12)} bars ${Math.min(...bars).toFixed(3)}–${Math.max(...bars).toFixed(3)} (shipped ${c.shipped}); ` +
      `held-out genuine frames held back ${heldBack} of ${c.genuine.length}, degraded let through ${letThrough} of ${c.degraded.length}`,
  );
}
