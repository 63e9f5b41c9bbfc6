import { SCAN_COMPRESSION } from '@giftlens/contract/constants';

/** Rear camera at 1280x720 (recipient-side §5). */
export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
};

const QUALITY_STEP = 0.1;

function toJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo'))), 'image/jpeg', quality);
  });
}

/**
 * Grabs the current video frame as a JPEG that fits 600x600 at quality 0.5, lowering the quality in steps of 0.1
 * (down to 0.3) while it is above 200 KB — exactly how the matcher was measured (design.md §4).
 */
export async function captureFrame(video: HTMLVideoElement): Promise<Blob> {
  const { maxWidthOrHeight, initialQuality, minQuality, maxSizeMB } = SCAN_COMPRESSION;
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) throw new Error('The camera has not started yet');
  const scale = Math.min(1, maxWidthOrHeight / Math.max(w, h));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * scale);
  canvas.height = Math.round(h * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Canvas is not available');
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);

  const target = maxSizeMB * 1024 * 1024;
  let quality = initialQuality;
  let blob = await toJpeg(canvas, quality);
  while (blob.size > target && quality - QUALITY_STEP >= minQuality - 1e-9) {
    quality = Math.round((quality - QUALITY_STEP) * 10) / 10;
    blob = await toJpeg(canvas, quality);
  }
  return blob;
}
