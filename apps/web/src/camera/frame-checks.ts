/**
 * Cheap checks of a camera frame, run in the browser several times a second (live scanning, decision 030): the
 * frame is drawn into a small canvas (CHECK_WIDTH wide), turned to grey, and measured. Only a frame that passes
 * every check is sent to the server; a failed check gives the person a hint.
 *
 * The thresholds were measured on the fake-camera clips of the data set's phone photos (1280x720, the photo
 * letterboxed as e2e/support/camera.ts makes them) and on dark, blurred and far-away variants of the same clips
 * made with ffmpeg (`npx tsx e2e/support/frame-check-figures.ts`, figures in decision 030). Each bar sits between
 * the worst genuine photo and the best degraded variant, with the margin on the genuine side where the measure
 * allows, so that no genuine photo of the set is held back: a frame the checks let through costs one live frame,
 * a frame they hold back costs the person time.
 */

/** Width of the canvas the checks draw the frame into (the height keeps the frame's aspect ratio). */
export const CHECK_WIDTH = 160;

/** Mean grey level (0-255) below which the picture is too dark to match: "More light" (dark ≤ 22.5, genuine ≥ 45.3). */
export const MIN_BRIGHTNESS = 32;
/**
 * Sharpness is the Laplacian's energy over the gradient's: fine detail against all detail, so it does not depend
 * on how much there is to see or on its contrast. Below this the frame is blurred (focus or shake): "Hold still".
 */
export const MIN_SHARPNESS = 1.5; // blurred σ 8 px ≤ 1.25, genuine ≥ 2.01
/** Gradient energy below which a frame shows nothing to judge sharpness by (a wall, a covered lens). */
export const MIN_TEXTURE = 4;
/**
 * Motion is the mean grey difference from the previous check over the mean gradient: roughly how many pixels of
 * the check canvas the picture moved. Above this the camera is moving: "Hold still".
 */
export const MAX_MOTION = 2.4; // moved 1 px ≤ 1.90, moved 4 px ≥ 2.88
/** The centre square the instructions ask the gift to fill, as a share of the frame's shorter side. */
export const CENTRE_SIDE = 0.7;
/** The centre square is judged in CENTRE_GRID x CENTRE_GRID cells. */
export const CENTRE_GRID = 4;
/** A pixel is on an edge when |dx| + |dy| of its grey level (central differences) is at least this. */
export const EDGE_STEP = 24;
/** A cell shows part of the gift when at least this share of its pixels is on an edge. */
export const CELL_EDGE_SHARE = 0.1;
/**
 * Share of the centre's cells with detail below which the gift is too small or too far: "Move closer". Genuine
 * frames show ≥ 10 of 16 cells, a picture at 30% of the frame 8: the bar admits 9.
 */
export const MIN_CENTRE_COVERAGE = 0.55;

export type FrameHint = 'moreLight' | 'holdStill' | 'moveCloser';

/** A frame drawn small and turned to grey: one byte per pixel, row by row. */
export interface GreyFrame {
  width: number;
  height: number;
  grey: Uint8Array;
}

export interface FrameMetrics {
  /** mean grey level, 0-255 */
  brightness: number;
  /** mean squared gradient (central differences, halved) of the grey levels */
  texture: number;
  /** mean squared 4-neighbour Laplacian over `texture` */
  sharpness: number;
  /** mean absolute grey difference from the previous frame over the mean absolute gradient (0 without one) */
  motion: number;
  /** share of the centre square's cells that show detail, 0-1 */
  centreCoverage: number;
}

/** Grey levels (ITU-R BT.601 weights, in integers) of RGBA pixels. */
export function toGrey(rgba: Uint8ClampedArray, width: number, height: number): GreyFrame {
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    grey[i] = (77 * rgba[p]! + 150 * rgba[p + 1]! + 29 * rgba[p + 2]!) >> 8;
  }
  return { width, height, grey };
}

/** Draws `source` (a video, image or canvas of `srcWidth`x`srcHeight`) into `canvas` at CHECK_WIDTH, in grey. */
export function sampleFrame(
  source: CanvasImageSource,
  srcWidth: number,
  srcHeight: number,
  canvas: HTMLCanvasElement,
): GreyFrame | null {
  if (!srcWidth || !srcHeight) return null;
  const width = CHECK_WIDTH;
  const height = Math.max(1, Math.round((CHECK_WIDTH * srcHeight) / srcWidth));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  // Averaging when shrinking: without it an 8x reduction keeps aliasing that reads as detail on a blurred frame.
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, width, height);
  return toGrey(ctx.getImageData(0, 0, width, height).data, width, height);
}

/** The measures of a frame; `previous` (the last check's frame) gives the motion. */
export function measureFrame(frame: GreyFrame, previous: GreyFrame | null = null): FrameMetrics {
  const { width: w, height: h, grey } = frame;
  let sum = 0;
  for (let i = 0; i < grey.length; i++) sum += grey[i]!;

  let lap = 0;
  let grad = 0;
  let absGrad = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      const l = grey[i - 1]! + grey[i + 1]! + grey[i - w]! + grey[i + w]! - 4 * grey[i]!;
      const dx = grey[i + 1]! - grey[i - 1]!;
      const dy = grey[i + w]! - grey[i - w]!;
      lap += l * l;
      grad += (dx * dx + dy * dy) / 4;
      absGrad += (Math.abs(dx) + Math.abs(dy)) / 4;
    }
  }
  const inner = Math.max(1, (w - 2) * (h - 2));
  const texture = grad / inner;

  let motion = 0;
  if (previous && previous.width === w && previous.height === h) {
    let diff = 0;
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) diff += Math.abs(grey[i]! - previous.grey[i]!);
    }
    motion = diff / Math.max(absGrad, inner);
  }

  return {
    brightness: sum / grey.length,
    texture,
    sharpness: lap / inner / Math.max(texture, 1),
    motion,
    centreCoverage: centreCoverage(frame),
  };
}

/** Share of the CENTRE_GRID² cells of the centre square in which at least CELL_EDGE_SHARE of the pixels are edges. */
function centreCoverage({ width: w, height: h, grey }: GreyFrame): number {
  const side = Math.round(Math.min(w, h) * CENTRE_SIDE);
  const x0 = Math.max(1, Math.floor((w - side) / 2));
  const y0 = Math.max(1, Math.floor((h - side) / 2));
  const cell = (i: number, origin: number, limit: number) => Math.min(limit - 1, origin + Math.floor((i * side) / CENTRE_GRID));
  let detailed = 0;
  for (let cy = 0; cy < CENTRE_GRID; cy++) {
    for (let cx = 0; cx < CENTRE_GRID; cx++) {
      let edges = 0;
      let count = 0;
      for (let y = cell(cy, y0, h); y < cell(cy + 1, y0, h); y++) {
        for (let x = cell(cx, x0, w), i = y * w + x; x < cell(cx + 1, x0, w); x++, i++) {
          if (Math.abs(grey[i + 1]! - grey[i - 1]!) + Math.abs(grey[i + w]! - grey[i - w]!) >= EDGE_STEP) edges++;
          count++;
        }
      }
      if (count && edges / count >= CELL_EDGE_SHARE) detailed++;
    }
  }
  return detailed / (CENTRE_GRID * CENTRE_GRID);
}

/** What the person should do before the frame is worth sending, or null when it passes every check. */
export function frameHint(m: FrameMetrics): FrameHint | null {
  if (m.brightness < MIN_BRIGHTNESS) return 'moreLight';
  if (m.motion > MAX_MOTION) return 'holdStill';
  if (m.texture >= MIN_TEXTURE && m.sharpness < MIN_SHARPNESS) return 'holdStill';
  if (m.centreCoverage < MIN_CENTRE_COVERAGE) return 'moveCloser';
  return null;
}
