import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardAssScript } from '../src/adapters/card-ass.ts';
import { combinedFilterGraph, layoutCard, TITLE_SIZES, type CardText } from '../src/adapters/combined-recipe.ts';
import { findCardFonts } from '../src/adapters/media-processor.ts';
import { cardFaces } from '../src/lib/shipped-fonts.ts';

const run = promisify(execFile);
/** The reference: "From प्रिया क्षत्रिय" as libass drew it with the shipped fonts, looked at by eye (conjuncts, matras). */
const REFERENCE = path.resolve(import.meta.dirname, 'fixtures/title-card-devanagari.png');
const NAME = 'From प्रिया क्षत्रिय';
const W = 320;
const H = 180;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'giftlens-title-card-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The first frame of a one-card graph from the recipe, as a PNG (as the reference was made), then 320×180 grey bytes. */
async function frameOf(text: CardText): Promise<Buffer> {
  // The recipe's own graph; its sound goes nowhere.
  const graph = `${combinedFilterGraph([{ kind: 'card', seconds: 1, text }])};[a]anullsink`;
  const png = path.join(work, `frame-${Math.random().toString(16).slice(2)}.png`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-filter_complex', graph, '-map', '[v]', '-frames:v', '1', png]);
  return grey(png);
}

async function grey(png: string): Promise<Buffer> {
  const out = path.join(work, `ref-${Math.random().toString(16).slice(2)}.gray`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', png, '-vf', `scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'gray', out]);
  return readFile(out);
}

/** Mean absolute difference per pixel (0–255) over the text's band, the middle third of the frame. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  let n = 0;
  for (let y = H / 3; y < (2 * H) / 3; y++)
    for (let x = 0; x < W; x++) {
      sum += Math.abs(a[y * W + x]! - b[y * W + x]!);
      n++;
    }
  return sum / n;
}

describe('a title card with a Devanagari name (issue 40)', () => {
  it('libass with the shipped fonts draws it as the reference: shaped, not boxes; drawtext in one font does not', async () => {
    const layout = layoutCard(NAME, TITLE_SIZES, 'bold');
    const fontsDir = path.join(work, 'fonts');
    await mkdir(fontsDir);
    for (const face of cardFaces(700)) await copyFile(face.file, path.join(fontsDir, path.basename(face.file)));
    const assFile = path.join(work, 'card.ass');
    await writeFile(assFile, cardAssScript(layout, 1, true, cardFaces(700)), 'utf8');
    const textFile = path.join(work, 'card.txt');
    await writeFile(textFile, layout.text, 'utf8');
    const fonts = await findCardFonts();

    const shaped = await frameOf({ textFile, fontFile: fonts.bold ?? '', fontSize: layout.fontSize, ass: { file: assFile, fontsDir } });
    const reference = await grey(REFERENCE);
    const same = difference(shaped, reference);
    expect(same).toBeLessThan(1.5);

    // The renderer before: drawtext in one font (DejaVu Sans Bold), no Devanagari glyphs.
    if (fonts.bold) {
      const old = await frameOf({ textFile, fontFile: fonts.bold, fontSize: layout.fontSize });
      expect(difference(old, reference)).toBeGreaterThan(same + 3);
    }
  });
});
