import { MB, SCAN_COMPRESSION } from '@giftlens/contract/constants';

const QUALITY_STEP = 0.1;
/** The still shown while a Take Photo scan runs: the frame at the camera's own resolution. */
const PREVIEW_QUALITY = 0.92;

/**
 * The photo of a scan, as the scanner, live scanning and the demo all take it: the current video frame fitted inside
 * SCAN_COMPRESSION.maxWidthOrHeight (600 px) by the browser's high-quality resampling, then JPEG at quality 0.5,
 * lowered in steps of 0.1 down to 0.3 until it is under 200 KB. The matcher is calibrated on exactly this recipe
 * (decisions 028 and 035; `browserCompress` in packages/matcher applies it to a photo). Nothing else may encode a scan.
 *
 * Everything is encoded synchronously (`toDataURL`), never with `canvas.toBlob`: Chromium runs toBlob's encoder in
 * the page's idle time, so while the camera, the frame checks and React keep the main thread busy a frame waited
 * 0.1–2 s to be encoded, and live frames reached the server seconds apart (decision 035 has the figures).
 */

/** A camera's <video>, or a canvas standing in for one (the scan-photo bench feeds photos). */
export type FrameSource = HTMLVideoElement | HTMLCanvasElement;

function frameSize(source: FrameSource): [number, number] {
  return source instanceof HTMLVideoElement ? [source.videoWidth, source.videoHeight] : [source.width, source.height];
}

/** Draws the current frame of `source` into a new canvas, scaled by `scale` (1: the camera's own resolution). */
function drawFrame(source: FrameSource, scale: number): HTMLCanvasElement {
  const [width, height] = frameSize(source);
  if (!width || !height) throw new Error('The camera has no picture yet');
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Canvas is not available');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** Gives a canvas's pixels back at once instead of at the next garbage collection (a frame is 3.7 MB at 1280x720). */
function release(canvas: HTMLCanvasElement): void {
  canvas.width = 0;
  canvas.height = 0;
}

/** A canvas as a JPEG file, encoded at once on this thread. */
export function encodeJpeg(canvas: HTMLCanvasElement, quality: number, name: string): File {
  const url = canvas.toDataURL('image/jpeg', quality);
  const comma = url.indexOf(',');
  if (!url.startsWith('data:image/jpeg') || comma < 0) throw new Error('Could not encode the photo');
  const text = atob(url.slice(comma + 1));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return new File([bytes], name, { type: 'image/jpeg', lastModified: Date.now() });
}

/** The scale that fits a `width` x `height` frame inside the scan's size (never enlarged). */
function scanScale(width: number, height: number): number {
  return Math.min(1, SCAN_COMPRESSION.maxWidthOrHeight / Math.max(width, height));
}

/** Encodes a canvas already fitted to the scan's size as the scan: quality 0.5, lowered until under 200 KB. */
export function encodeScan(canvas: HTMLCanvasElement): File {
  const target = SCAN_COMPRESSION.maxSizeMB * MB;
  let scan: File | null = null;
  for (
    let quality = SCAN_COMPRESSION.initialQuality;
    quality >= SCAN_COMPRESSION.minQuality - 1e-9;
    quality = Math.round((quality - QUALITY_STEP) * 10) / 10
  ) {
    scan = encodeJpeg(canvas, quality, 'scan.jpg');
    if (scan.size <= target) break;
  }
  return scan!;
}

/** The scan of the camera's current frame (live frames and the demo: nothing is shown). */
export function scanFrame(source: FrameSource): File {
  const canvas = drawFrame(source, scanScale(...frameSize(source)));
  try {
    return encodeScan(canvas);
  } finally {
    release(canvas);
  }
}

/**
 * Take Photo: the current frame at the camera's resolution as a high-quality JPEG to show while the scan runs, and
 * the scan of that same frame (fitted from the full-size drawing, so both show one instant).
 */
export function captureScan(source: FrameSource): { preview: File; scan: File } {
  const full = drawFrame(source, 1);
  let fitted: HTMLCanvasElement | null = null;
  try {
    const preview = encodeJpeg(full, PREVIEW_QUALITY, 'capture.jpg');
    fitted = drawFrame(full, scanScale(full.width, full.height));
    return { preview, scan: encodeScan(fitted) };
  } finally {
    release(full);
    if (fitted) release(fitted);
  }
}
