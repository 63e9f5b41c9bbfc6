/**
 * The evidence matrix of the data set: every genuine photo (compressed as the browser does) compared with every
 * reference, with the engine's CONFIG as it stands (callers may override it first). One row per comparison:
 * genuine when the photo shows that reference's gift, impostor otherwise. Cached in the temp folder, keyed by the
 * data set, CONFIG and the engine's source, because it takes minutes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserCompress } from '../decode.ts';
import { CONFIG } from '../config.ts';
import { compare } from '../engine.ts';
import { extractReference } from '../enrol.ts';
import { type PairEvidence } from '../evidence.ts';
import { extractQuery } from '../staged.ts';
import type { Features } from '../features.ts';
import type { Comparison } from '../calibration.ts';
import { readPairs, type Pair } from './dataset.ts';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Gift id of a data-set image: `cover:001`, `object:05`. */
export function giftOf(path: string): string {
  const b = basename(path, '.jpg');
  return path.includes('/objects/') ? `object:${b.slice(0, 2)}` : `cover:${b.slice(0, 3)}`;
}

/** A comparison's inliers as match() judges them: the zoomed and tilted looks (decisions 052, 053) count from their own bars. */
const decided = (e: PairEvidence): number => {
  const zoomed = e.zoomLook !== undefined && e.zoomLook >= CONFIG.zoomLookBar ? Math.max(e.inliers, e.zoomLook) : e.inliers;
  return e.tiltLook !== undefined && e.tiltLook >= CONFIG.tiltLookBar ? Math.max(zoomed, e.tiltLook) : zoomed;
};

/** The data set by gift: its references, kinds, phone photos, and the object photos a hard case may use as clutter. */
export function giftIndex(pairs: Pair[]) {
  const refPaths = [...new Set(pairs.map((p) => p.referencePath))].sort();
  const kindOf = new Map<string, string>();
  for (const p of pairs) kindOf.set(giftOf(p.referencePath), p.kind);
  const refOf = new Map(refPaths.map((r) => [giftOf(r), r]));
  const photosOf = new Map<string, string[]>();
  for (const p of pairs.filter((x) => x.label === true)) photosOf.set(giftOf(p.referencePath), [...(photosOf.get(giftOf(p.referencePath)) ?? []), p.queryPath]);
  const gifts = [...refOf.keys()].sort();
  const backgrounds = [...new Set(pairs.filter((p) => p.queryPath.includes('/objects/')).flatMap((p) => [p.queryPath, p.referencePath]))]
    .sort()
    .map((path) => ({ name: basename(path), path, gift: giftOf(path) }));
  return { refPaths, kindOf, refOf, photosOf, gifts, backgrounds };
}

/**
 * Comparisons that the data set labels impostor but whose photo really shows that other cover too (checked by eye:
 * Stanford "palm" photos of cover N with cover N+1 beside it; and two with another cover behind, which the second look
 * of decision 047 found at 21 and 40 inliers: 003-palm shows 004's bee, 026-palm 028's green Matrix cover). They are
 * left out of the impostor distribution.
 * Keys: `photo,gift` (`covers/photos/016-palm.jpg,cover:017`).
 */
export const SHOWS_BOTH: ReadonlySet<string> = new Set(
  readFileSync(join(SRC, 'cli', 'shows-both.csv'), 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [photo, reference] = l.trim().split(',');
      return `${photo},${giftOf(reference!)}`;
    }),
);

function sourceHash(): string {
  const h = createHash('sha256');
  // the engine's files; calibration.ts only reads the evidence
  for (const f of readdirSync(SRC).sort()) if ((f.endsWith('.ts') || f.endsWith('.wasm')) && f !== 'calibration.ts') h.update(readFileSync(join(SRC, f)));
  return h.digest('hex').slice(0, 16);
}

export interface Matrix {
  rows: Comparison[];
  queries: number;
  references: number;
  /** CPU ms per query extraction and per comparison while building (0 when read from the cache) */
  extractMs: number;
  compareMs: number;
}

/** Where the matrix of this data set, with CONFIG as it is now and the engine's source as it is now, is cached. */
export function cacheFile(csv: string): string {
  // the decision constants do not change the evidence
  const { minInliers: _i, minSpread: _s, ...settings } = CONFIG;
  const key = createHash('sha256').update(resolve(process.env.INIT_CWD ?? process.cwd(), csv)).update(JSON.stringify(settings)).update(sourceHash()).digest('hex').slice(0, 20);
  return join(tmpdir(), 'giftlens-matcher', `evidence-${key}.json`);
}

export async function evidenceMatrix(csv: string, log: (s: string) => void = () => {}): Promise<Matrix> {
  const pairs = readPairs(csv);
  const file = cacheFile(csv);
  const dir = dirname(file);
  if (existsSync(file)) {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Matrix;
    for (const c of m.rows) c.showsBoth = SHOWS_BOTH.has(`${c.query},${c.refGift}`);
    return m;
  }
  const refPaths = [...new Set(pairs.map((p) => p.referencePath))].sort();
  const queryPaths = [...new Set(pairs.filter((p) => p.label === true).map((p) => p.queryPath))].sort();
  const kindOf = new Map(pairs.map((p) => [p.queryPath, p.kind]));
  const refs = new Map<string, Features>();
  for (const r of refPaths) refs.set(r, await extractReference(readFileSync(r)));
  const rows: Comparison[] = [];
  let extractUs = 0, compareUs = 0;
  for (const [i, qp] of queryPaths.entries()) {
    const buf = await browserCompress(readFileSync(qp));
    let t = process.cpuUsage();
    const q = await extractQuery(buf);
    let u = process.cpuUsage(t);
    extractUs += u.user + u.system;
    t = process.cpuUsage();
    for (const rp of refPaths) {
      const e = compare(q, refs.get(rp)!);
      const qg = giftOf(qp), rg = giftOf(rp);
      rows.push({ query: rel(qp), queryGift: qg, refGift: rg, kind: kindOf.get(qp)!, genuine: qg === rg, showsBoth: SHOWS_BOTH.has(`${rel(qp)},${rg}`), inliers: decided(e), spread: Math.round(e.spread * 36) });
    }
    u = process.cpuUsage(t);
    compareUs += u.user + u.system;
    if (i % 20 === 19) log(`  evidence: ${i + 1}/${queryPaths.length} photos`);
  }
  const m: Matrix = { rows, queries: queryPaths.length, references: refPaths.length, extractMs: extractUs / 1000 / queryPaths.length, compareMs: compareUs / 1000 / rows.length };
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(m));
  return m;
}

/**
 * Whether `photo` (a data-set path, absolute or `covers/photos/…`) also shows `gift`'s cover (SHOWS_BOTH): a scene made
 * from that photo shows it too, so comparing the scene with that gift is no impostor test.
 */
export const showsBoth = (photo: string, gift: string): boolean => SHOWS_BOTH.has(`${rel(photo)},${gift}`);

/** `covers/photos/001-palm.jpg` from an absolute data-set path (a relative one is returned as it is). */
function rel(p: string): string {
  const i = p.lastIndexOf('/covers/');
  const j = p.lastIndexOf('/objects/');
  return p.slice(Math.max(i, j) + 1);
}
