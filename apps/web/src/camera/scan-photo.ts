import { MB, SCAN_COMPRESSION } from '@giftlens/contract/constants';
import imageCompression from 'browser-image-compression';

const QUALITY_STEP = 0.1;

/**
 * The photo of a scan, as the scanner and the demo both take it: the current video frame at the camera's own
 * resolution as a high-quality JPEG (`captureFrame`, shown while the scan runs), then `compressScan`, the one
 * compression the matcher is calibrated on. Nothing else may encode a scan.
 */

/** Draws the current video frame at its own resolution and encodes it as a high-quality JPEG. */
export async function captureFrame(video: HTMLVideoElement): Promise<File> {
  const width = video.videoWidth;
  const height = video.videoHeight;
  if (!width || !height) throw new Error('The camera has no picture yet');
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Canvas is not available');
  ctx.drawImage(video, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
  canvas.width = 0;
  canvas.height = 0;
  if (!blob) throw new Error('Could not encode the photo');
  return new File([blob], 'capture.jpg', { type: 'image/jpeg', lastModified: Date.now() });
}

/**
 * Shrinks a captured frame before it is sent: fit 600x600, JPEG quality 0.5, lowered in steps of 0.1 down
 * to 0.3 until the file is under 200 KB. The first result already under the target is kept as it is.
 * The matcher is calibrated on exactly this (design.md §4), so the size is always fitted, even for small files.
 */
export async function compressScan(file: File): Promise<File> {
  const target = SCAN_COMPRESSION.maxSizeMB * MB;
  let best: File = file;
  for (
    let quality = SCAN_COMPRESSION.initialQuality;
    quality >= SCAN_COMPRESSION.minQuality - 1e-9;
    quality = Math.round((quality - QUALITY_STEP) * 10) / 10
  ) {
    const blob = await imageCompression(file, {
      maxWidthOrHeight: SCAN_COMPRESSION.maxWidthOrHeight,
      initialQuality: quality,
      fileType: 'image/jpeg',
      alwaysKeepResolution: true,
      maxIteration: 1,
      // The library's worker loads its script from a CDN; the main thread is fast enough for one frame.
      useWebWorker: false,
    });
    best = new File([blob], 'scan.jpg', { type: 'image/jpeg', lastModified: Date.now() });
    if (best.size <= target) break;
  }
  return best;
}
