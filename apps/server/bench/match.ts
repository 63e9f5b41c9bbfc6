/**
 * npm run -s match -- --pairs PAIRS.csv   (from the repository root)
 *
 * Each pair as the product sees it (the shipped recipe exactly as a phone's photo goes through the product):
 * - the reference as a sender's gift photo: the server's checks and normalisation (pixelsOverLimit,
 *   normaliseGiftImage: decoded, EXIF-rotated, fit 1600 px, JPEG 85), then enrolled by the recogniser;
 * - the query as the recipient's browser sends it: the web's scan-photo recipe (matcher `browserCompress`: fit
 *   600 px, JPEG 0.5, lower while over 200 KB; SCAN_COMPRESSION), then the server's scan checks (the type sniffed
 *   from its bytes, at most 2 MB, the pixel limit) and the recogniser's match, as process-scan does it
 *   (`matchScan`: the matcher's worker pool with the shipped CONFIG, one reference per gift).
 * Prints {"reference","query","match","score","ms"} per pair, one JSON line each; ms is the scan's time in the
 * matcher's worker (query decoding and extraction included). A pair the product would refuse prints match false
 * with `error` (the refusal's code).
 */
import { readFileSync } from 'node:fs';
import { browserCompress } from '@giftlens/matcher/decode';
import { readPairs, argValue } from '@giftlens/matcher/cli/dataset';
import { createMatcherRecogniser } from '../src/adapters/recogniser.ts';
import { AppError } from '../src/lib/errors.ts';
import { normaliseGiftImage, pixelsOverLimit } from '../src/lib/images.ts';
import { assertScanPhoto } from '../src/lib/scan-photo.ts';
import { matchScan } from '../src/modules/scans/scan-match.ts';

const csv = argValue('--pairs');
if (!csv) {
  console.error('usage: npm run -s match -- --pairs PAIRS.csv');
  process.exit(2);
}
let pairs: ReturnType<typeof readPairs>;
try {
  pairs = readPairs(csv);
} catch (err) {
  console.error(`cannot read ${csv}: ${(err as Error).message}`);
  process.exit(2);
}
// one worker and a queue that never refuses: the command scans one pair at a time
const recogniser = createMatcherRecogniser({ size: 1, queue: 1 });
const refs = new Map<string, Promise<Uint8Array>>();

async function enrolled(path: string): Promise<Uint8Array> {
  const input = readFileSync(path);
  if ((await pixelsOverLimit(input)) !== null) throw new AppError(422, 'gift_image_too_many_pixels', 'too many pixels');
  const image = await normaliseGiftImage(input);
  if (!image) throw new AppError(400, 'gift_image_invalid', 'not an image');
  return (await recogniser.enrol(image.data)).reference;
}

async function scanned(path: string): Promise<Buffer> {
  const scan = await browserCompress(readFileSync(path));
  await assertScanPhoto(scan);
  return scan;
}

let failures = 0;
try {
  for (const p of pairs) {
    try {
      let ref = refs.get(p.referencePath);
      if (!ref) {
        ref = enrolled(p.referencePath);
        refs.set(p.referencePath, ref);
      }
      // the reference first: its failure is this pair's (and is not left unawaited when the query fails)
      const reference = await ref;
      const d = await matchScan(recogniser, await scanned(p.queryPath), [[reference]]);
      console.log(JSON.stringify({ reference: p.reference, query: p.query, match: d.matched, score: d.score, ms: d.ms }));
    } catch (err) {
      failures++;
      const e = err as { code?: string; message?: string };
      console.log(JSON.stringify({ reference: p.reference, query: p.query, match: false, score: 0, ms: 0, error: e.code ?? e.message }));
    }
  }
} finally {
  await recogniser.close();
}
if (failures) console.error(`${failures} pair(s) could not be scanned`);
