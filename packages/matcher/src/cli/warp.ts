import sharp from 'sharp';
import { type CV } from '../cv.ts';

/**
 * Warps raw pixels (1, 3 or 4 channels) so that their corners land on `quad` (x0,y0 .. x3,y3, clockwise from the
 * top left) in a picture of outW x outH filled with `border` outside, and returns it as PNG.
 */
export async function warpTo(
  cv: CV,
  img: { data: Uint8Array; width: number; height: number; channels: number },
  quad: number[],
  outW: number,
  outH: number,
  border: [number, number, number, number],
): Promise<Buffer> {
  const { width: w, height: h, channels } = img;
  const src = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, w, 0, w, h, 0, h]);
  const dst = cv.matFromArray(4, 1, cv.CV_32FC2, quad);
  const type = channels === 4 ? 24 /* CV_8UC4 */ : channels === 3 ? 16 /* CV_8UC3 */ : cv.CV_8UC1;
  const a = new cv.Mat(h, w, type);
  const b = new cv.Mat();
  const M = cv.getPerspectiveTransform(src, dst);
  try {
    a.data.set(img.data);
    cv.warpPerspective(a, b, M, new cv.Size(outW, outH), cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(...border));
    return await sharp(Buffer.from(b.data), { raw: { width: outW, height: outH, channels: channels as 1 | 3 | 4 } }).png().toBuffer();
  } finally {
    M.delete();
    b.delete();
    a.delete();
    dst.delete();
    src.delete();
  }
}
