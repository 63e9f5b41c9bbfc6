import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The card's fonts, shipped from the npm registry (no system font assumed), all under the SIL Open Font License 1.1:
 * Noto Sans (@fontsource/noto-sans: Latin, Latin Extended, Cyrillic, Greek, Vietnamese subsets) and Noto Sans
 * Devanagari (@fontsource/noto-sans-devanagari). Each character is drawn in the first face that has a glyph for
 * it; a run of one face is shaped as a whole by fontkit (conjuncts, matras and reph for Devanagari).
 */
const require = createRequire(import.meta.url);

const FACES: { pkg: string; file: string }[] = [
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin' },
  { pkg: '@fontsource/noto-sans-devanagari', file: 'noto-sans-devanagari-devanagari' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin-ext' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-cyrillic' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-greek' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-vietnamese' },
];

export type Weight = 400 | 700;

export interface CardFace {
  /** The name the PDF document registers it under. */
  name: string;
  data: Buffer;
  /** Code points the face draws (from its cmap). */
  has: (codePoint: number) => boolean;
}

const loaded = new Map<Weight, CardFace[]>();

/** Reads each face once per process (about 0.5 MB in all, WOFF). */
export function cardFaces(weight: Weight): CardFace[] {
  const known = loaded.get(weight);
  if (known) return known;
  const faces = FACES.map(({ pkg, file }) => {
    const data = readFileSync(require.resolve(`${pkg}/files/${file}-${weight}-normal.woff`));
    const font = fontkit.create(data);
    if (!('characterSet' in font)) throw new Error(`${file}: not a single font`);
    const chars = new Set(font.characterSet);
    return { name: `${file}-${weight}`, data, has: (cp: number) => chars.has(cp) };
  });
  loaded.set(weight, faces);
  return faces;
}

/** Joiners and combining marks stay with the run before them, so a cluster is never split between faces. */
const clings = (cp: number) => cp === 0x200c || cp === 0x200d || (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0xfe00 && cp <= 0xfe0f);

/** The text cut into runs, each drawn in one face. */
export function runsOf(text: string, faces: CardFace[]): { face: CardFace; text: string }[] {
  const runs: { face: CardFace; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = runs.at(-1);
    if (last && (clings(cp) || (ch === ' ' && last.face.has(cp)))) {
      last.text += ch;
      continue;
    }
    const face = faceFor(cp, faces);
    if (last && last.face === face) last.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

function faceFor(cp: number, faces: CardFace[]): CardFace {
  return faces.find((f) => f.has(cp)) ?? faces[0]!;
}
