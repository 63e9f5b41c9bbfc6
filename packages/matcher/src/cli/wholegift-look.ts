/**
 * npm run -s wholegift:look -w @giftlens/matcher -- REFERENCE.jpg PHOTO.jpg OUT-PREFIX
 *
 * Shows a person what the whole-gift check (decision 056) compared: for each check match() made, OUT-PREFIX-N.png holds
 * the reference's working picture beside the photo warped onto it (after the ECC alignment), and one JSON line per
 * check is printed with the look, inliers, coverage and the cell counts; then the decision.
 */
import sharp from 'sharp';
import { debug } from '../appearance.ts';
import { browserCompress } from '../decode.ts';
import { match, trace } from '../engine.ts';
import { enrol } from '../enrol.ts';

const [reference, photo, out] = process.argv.slice(2);
if (!reference || !photo || !out) {
  console.error('usage: npm run -s wholegift:look -w @giftlens/matcher -- REFERENCE.jpg PHOTO.jpg OUT-PREFIX');
  process.exit(2);
}
const written: Promise<unknown>[] = [];
debug.onWork = (ref, warped, w, h) => {
  const side = Buffer.alloc(w * 2 * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      side[y * 2 * w + x] = ref[y * w + x]!;
      side[y * 2 * w + w + x] = warped[y * w + x]!;
    }
  }
  const file = `${out}-${written.length}.png`;
  written.push(sharp(side, { raw: { width: 2 * w, height: h, channels: 1 } }).resize({ width: 4 * w, kernel: 'nearest' }).png().toFile(file));
};
trace.onLook = (v) => console.log(JSON.stringify(v));
const ref = (await enrol(await sharp(reference).rotate().jpeg({ quality: 85 }).toBuffer())).reference;
console.log(JSON.stringify(await match(await browserCompress(await sharp(photo).toBuffer()), [[ref]])));
await Promise.all(written);
