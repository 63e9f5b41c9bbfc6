/**
 * The page side of `npm run bench:scan-photo` (scan-photo.ts beside it): today's scan recipe (`scanFrame`) and
 * the one it replaced (decision 035: `canvas.toBlob` at 0.92, then browser-image-compression), run on a photo
 * drawn as a camera frame, with the time each takes.
 */
import { MB, SCAN_COMPRESSION } from '@giftlens/contract/constants';
import imageCompression from 'browser-image-compression';
import { scanFrame } from '../src/camera/scan-photo.ts';

/** The recipe before decision 035, as it was in apps/web/src/camera/scan-photo.ts. */
async function previousRecipe(frame: HTMLCanvasElement): Promise<Blob> {
  const full = await new Promise<Blob | null>((resolve) => frame.toBlob(resolve, 'image/jpeg', 0.92));
  if (!full) throw new Error('toBlob failed');
  const file = new File([full], 'capture.jpg', { type: 'image/jpeg' });
  let best: Blob = file;
  for (let q = SCAN_COMPRESSION.initialQuality; q >= SCAN_COMPRESSION.minQuality - 1e-9; q = Math.round((q - 0.1) * 10) / 10) {
    best = await imageCompression(file, {
      maxWidthOrHeight: SCAN_COMPRESSION.maxWidthOrHeight,
      initialQuality: q,
      fileType: 'image/jpeg',
      alwaysKeepResolution: true,
      maxIteration: 1,
      useWebWorker: false,
    });
    if (best.size <= SCAN_COMPRESSION.maxSizeMB * MB) break;
  }
  return best;
}

/** A photo as a phone camera's frame: its longer side at `side` px (a 1280x720 stream sees no more). */
async function cameraFrame(url: string, side: number): Promise<HTMLCanvasElement> {
  const bitmap = await createImageBitmap(await (await fetch(url)).blob(), { imageOrientation: 'from-image' });
  const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas;
}

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** While on, the main thread is kept busy as a live camera page keeps it: 12 ms of work in every animation frame. */
let busy = false;
function spin() {
  if (!busy) return;
  const end = performance.now() + 12;
  while (performance.now() < end);
  requestAnimationFrame(spin);
}

export interface Encoded {
  /** the frame as lossless PNG (what Node's sharp recipe starts from), base64 */
  frame: string;
  previous: string;
  current: string;
  previousMs: number;
  currentMs: number;
}

async function encode(url: string, side: number, withFrame: boolean, busyMainThread: boolean): Promise<Encoded> {
  const frame = await cameraFrame(url, side);
  busy = busyMainThread;
  if (busy) requestAnimationFrame(spin);
  try {
    let t = performance.now();
    const previous = await previousRecipe(frame);
    const previousMs = performance.now() - t;
    t = performance.now();
    const current = scanFrame(frame);
    const currentMs = performance.now() - t;
    return {
      frame: withFrame ? frame.toDataURL('image/png').split(',')[1]! : '',
      previous: await base64(previous),
      current: await base64(current),
      previousMs,
      currentMs,
    };
  } finally {
    busy = false;
  }
}

(window as unknown as { scanPhotoBench: unknown }).scanPhotoBench = { encode };
