import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * Fonts shipped from the npm registry (no system font assumed), all under the SIL Open Font License 1.1: Noto Sans
 * (@fontsource/noto-sans: Latin, Latin Extended, Cyrillic, Greek, Vietnamese subsets), Noto Sans Devanagari, Noto
 * Sans Tamil and Noto Sans Bengali (@fontsource/noto-sans-*). The printable card (modules/gift-card) and the combined
 * video's title cards (adapters/card-ass.ts) draw each character in the first face that has a glyph for it; a run of
 * one face is shaped as a whole (fontkit for the PDF, libass with HarfBuzz for the video).
 */
const require = createRequire(import.meta.url);

const FACES: { pkg: string; file: string; family: string }[] = [
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin', family: 'Noto Sans' },
  { pkg: '@fontsource/noto-sans-devanagari', file: 'noto-sans-devanagari-devanagari', family: 'Noto Sans Devanagari' },
  { pkg: '@fontsource/noto-sans-tamil', file: 'noto-sans-tamil-tamil', family: 'Noto Sans Tamil' },
  { pkg: '@fontsource/noto-sans-bengali', file: 'noto-sans-bengali-bengali', family: 'Noto Sans Bengali' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-latin-ext', family: 'Noto Sans' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-cyrillic', family: 'Noto Sans' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-greek', family: 'Noto Sans' },
  { pkg: '@fontsource/noto-sans', file: 'noto-sans-vietnamese', family: 'Noto Sans' },
];

export type Weight = 400 | 700;

export interface CardFace {
  /** A name of its own (the PDF document registers it under it). */
  name: string;
  /** Its family name, as libass selects it (`\fn`). */
  family: string;
  /** Its file in node_modules. */
  file: string;
  data: Buffer;
  /** Code points the face draws (from its cmap). */
  has: (codePoint: number) => boolean;
}

const loaded = new Map<Weight, CardFace[]>();

/** Reads each face once per process (about 0.6 MB a weight, WOFF). */
export function cardFaces(weight: Weight): CardFace[] {
  const known = loaded.get(weight);
  if (known) return known;
  const faces = FACES.map(({ pkg, file, family }) => {
    const path = require.resolve(`${pkg}/files/${file}-${weight}-normal.woff`);
    const data = readFileSync(path);
    const font = fontkit.create(data);
    if (!('characterSet' in font)) throw new Error(`${file}: not a single font`);
    const chars = new Set(font.characterSet);
    return { name: `${file}-${weight}`, family, file: path, data, has: (cp: number) => chars.has(cp) };
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
