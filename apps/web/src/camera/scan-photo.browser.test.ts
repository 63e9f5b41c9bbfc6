import { MB, SCAN_COMPRESSION } from '@giftlens/contract/constants';
import { afterEach, describe, expect, test } from 'vitest';
import { captureScan, encodeJpeg, encodeScan, scanFrame } from './scan-photo.ts';

const TARGET = SCAN_COMPRESSION.maxSizeMB * MB;
let stream: MediaStream | null = null;

afterEach(() => {
  stream?.getTracks().forEach((t) => t.stop());
  stream = null;
});

/** Chromium's fake camera at 1280x720, playing in a <video> (as the scanner's camera shows it). */
async function cameraVideo(): Promise<HTMLVideoElement> {
  stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 }, audio: false });
  const video = document.createElement('video');
  video.muted = true;
  video.srcObject = stream;
  await video.play();
  // The picture's size is known once the first frame has come (the video's resize event).
  while (!video.videoWidth) await new Promise((r) => video.addEventListener('resize', r, { once: true }));
  return video;
}

async function size(file: File): Promise<[number, number]> {
  const bitmap = await createImageBitmap(file);
  const dims: [number, number] = [bitmap.width, bitmap.height];
  bitmap.close();
  return dims;
}

/** Bytes of a JPEG's start: SOI, then an APPn or DQT marker. */
async function isJpeg(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 3).arrayBuffer());
  return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

/** A canvas of random pixels: JPEG cannot shrink noise, so the first qualities are over the scan's 200 KB. */
function noise(side: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(side, side);
  let seed = 12345;
  for (let i = 0; i < img.data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    img.data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}

describe('the scan photo (the recipe the matcher is calibrated on)', () => {
  test('a live frame is the camera frame fitted inside 600 px, a JPEG under 200 KB', async () => {
    const video = await cameraVideo();
    expect([video.videoWidth, video.videoHeight]).toEqual([1280, 720]);
    const scan = scanFrame(video);
    expect(scan.type).toBe('image/jpeg');
    expect(await isJpeg(scan)).toBe(true);
    expect(await size(scan)).toEqual([600, 338]);
    expect(scan.size).toBeGreaterThan(1000);
    expect(scan.size).toBeLessThanOrEqual(TARGET);
  });

  test('Take Photo shows the frame at the camera’s resolution and sends the same instant fitted inside 600 px', async () => {
    const video = await cameraVideo();
    const { preview, scan } = captureScan(video);
    expect(await isJpeg(preview)).toBe(true);
    expect(await size(preview)).toEqual([1280, 720]);
    expect(await size(scan)).toEqual([600, 338]);
    expect(scan.size).toBeLessThanOrEqual(TARGET);
    // The preview is encoded at 0.92, the scan at 0.5 and a quarter of the pixels: much the larger file.
    expect(preview.size).toBeGreaterThan(scan.size * 2);
  });

  test('a frame with no picture yet is an error, not an empty scan', () => {
    expect(() => scanFrame(document.createElement('video'))).toThrow('The camera has no picture yet');
  });

  test('quality starts at 0.5 and is lowered by 0.1, down to 0.3, until the scan is under 200 KB', () => {
    const picture = noise(800); // at 600 px even noise stays under 200 KB at 0.5 (140 KB)
    const atHalf = encodeJpeg(picture, 0.5, 'q.jpg');
    const atLeast = encodeJpeg(picture, 0.3, 'q.jpg');
    expect(atHalf.size).toBeGreaterThan(TARGET);
    const scan = encodeScan(picture);
    const expected = [0.4, 0.3].map((q) => encodeJpeg(picture, q, 'q.jpg')).find((f) => f.size <= TARGET) ?? atLeast;
    expect(scan.size).toBe(expected.size);

    // A picture that is small at 0.5 is kept at 0.5.
    const plain = document.createElement('canvas');
    plain.width = 600;
    plain.height = 400;
    plain.getContext('2d')!.fillRect(100, 100, 200, 100);
    expect(encodeScan(plain).size).toBe(encodeJpeg(plain, 0.5, 'q.jpg').size);
  });
});
