import { describe, expect, test } from 'vitest';
import canon001 from '../../../../test-fixtures/gift-photos/covers/photos/001-canon.jpg';
import droid001 from '../../../../test-fixtures/gift-photos/covers/photos/001-droid.jpg';
import canon002 from '../../../../test-fixtures/gift-photos/covers/photos/002-canon.jpg';
import canon003 from '../../../../test-fixtures/gift-photos/covers/photos/003-canon.jpg';
import { frameHint, measureFrame, sampleFrame, type FrameHint } from './frame-checks.ts';

const PHOTOS = { '001-canon': canon001, '001-droid': droid001, '002-canon': canon002, '003-canon': canon003 };

async function loadImage(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.src = url;
  await img.decode();
  return img;
}

interface View {
  /** a CSS filter on the picture: the camera's light or focus */
  filter?: string;
  /** the picture's share of the frame (1: the whole frame, as the fake camera shows a photo) */
  scale?: number;
  /** moved right by this many pixels of the 1280 frame */
  shift?: number;
}

/** The fake camera's 1280x720 frame of a photo (letterboxed, as e2e/support/camera.ts makes its clips). */
function cameraFrame(img: HTMLImageElement, { filter = 'none', scale = 1, shift = 0 }: View = {}): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = scale < 1 ? '#808080' : '#000';
  ctx.fillRect(0, 0, 1280, 720);
  const fit = Math.min(1280 / img.naturalWidth, 720 / img.naturalHeight) * scale;
  const w = img.naturalWidth * fit;
  const h = img.naturalHeight * fit;
  ctx.filter = filter;
  ctx.drawImage(img, (1280 - w) / 2 + shift, (720 - h) / 2, w, h);
  return canvas;
}

/** The hint for `view` of `photo`, checked against the same view `moved` pixels earlier. */
async function hintFor(photo: string, view: View = {}, moved = 0): Promise<FrameHint | null> {
  const img = await loadImage(photo);
  const check = document.createElement('canvas');
  const previous = sampleFrame(cameraFrame(img, { ...view, shift: (view.shift ?? 0) - moved }), 1280, 720, check)!;
  const frame = sampleFrame(cameraFrame(img, view), 1280, 720, check)!;
  expect(frame.width).toBe(160);
  expect(frame.height).toBe(90);
  return frameHint(measureFrame(frame, previous));
}

describe('frame checks on the fake camera’s frames of real gift photos', () => {
  test.each(Object.entries(PHOTOS))('%s: the sharp, lit, still frame passes', async (_name, photo) => {
    expect(await hintFor(photo)).toBeNull();
    // A hand's tremor between two checks (8 px of the frame) is still.
    expect(await hintFor(photo, {}, 8)).toBeNull();
  });

  test.each(Object.entries(PHOTOS))('%s: at a fifth of the light it asks for more light', async (_name, photo) => {
    expect(await hintFor(photo, { filter: 'brightness(0.18)' })).toBe('moreLight');
  });

  test.each(Object.entries(PHOTOS))('%s: out of focus, or moving between two checks, it asks to hold still', async (_name, photo) => {
    expect(await hintFor(photo, { filter: 'blur(8px)' })).toBe('holdStill');
    expect(await hintFor(photo, {}, 40)).toBe('holdStill');
  });

  test.each(Object.entries(PHOTOS))('%s: far away (a third of the frame wide) it asks to move closer', async (_name, photo) => {
    expect(await hintFor(photo, { scale: 0.3 })).toBe('moveCloser');
    // Half the frame is close enough.
    expect(await hintFor(photo, { scale: 0.5 })).toBeNull();
  });

  test('a blank frame asks to move closer, a black one for light; no video frame yet gives no sample', () => {
    const canvas = document.createElement('canvas');
    canvas.width = 1280;
    canvas.height = 720;
    const ctx = canvas.getContext('2d')!;
    const check = document.createElement('canvas');
    ctx.fillStyle = '#c8c8c8';
    ctx.fillRect(0, 0, 1280, 720);
    expect(frameHint(measureFrame(sampleFrame(canvas, 1280, 720, check)!))).toBe('moveCloser');
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, 1280, 720);
    expect(frameHint(measureFrame(sampleFrame(canvas, 1280, 720, check)!))).toBe('moreLight');
    expect(sampleFrame(canvas, 0, 0, check)).toBeNull();
  });
});
