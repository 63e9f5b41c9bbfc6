/**
 * npm run -s wholegift -w @giftlens/matcher -- --pairs PAIRS.csv [--worst 15] [--rows out.jsonl [--cells]] [--relaxed] [--textbook]
 *
 * The whole-gift check (decision 056) on a labelled data set, in this thread: each pair's reference enrolled (after a
 * JPEG 85 re-encode, as the server stores a gift photo), the query compressed as the recipient's browser sends it
 * (`browserCompress`), then match(). Prints per kind (genuine, sibling, other-brand, ...) the rate of matches, then
 * the worst cases: every false match with the look that decided it, its inliers, coverage and cell agreement
 * (structure / colour / contradictions of the placed cells), and the genuine misses the check refused, so a person can
 * look at them. `--relaxed` lets every check pass while still measuring it (the rule's inputs, for tuning); `--rows`
 * writes one JSON line per pair with every vetting. The product's own path is `npm run -s match` (repository root).
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { debug, WHOLE_GIFT, type Cell } from '../appearance.ts';
import { baselineExtract, baselineMatch } from '../baseline.ts';
import type { Features } from '../features.ts';
import { browserCompress } from '../decode.ts';
import { CONFIG } from '../config.ts';
import { match, trace, type Vetting } from '../engine.ts';
import { enrol } from '../enrol.ts';
import { argValue, readPairs } from './dataset.ts';

const csv = argValue('--pairs');
if (!csv) {
  console.error('usage: npm run -s wholegift -w @giftlens/matcher -- --pairs PAIRS.csv [--worst 15] [--rows out.jsonl] [--relaxed]');
  process.exit(2);
}
const worst = Number(argValue('--worst', '15'));
const rowsOut = argValue('--rows');
if (process.argv.includes('--relaxed')) {
  Object.assign(WHOLE_GIFT, { minAgree: 0, minAgreeShare: 0, maxRecoloured: Infinity, maxHoles: Infinity });
  CONFIG.minCoverage = 0;
}
if (process.argv.includes('--off')) CONFIG.wholeGift = false;
// --set shift=2,texture=6: WHOLE_GIFT settings for this run
for (const kv of (argValue('--set') ?? '').split(',').filter(Boolean)) {
  const [k, v] = kv.split('=');
  if (!(k! in WHOLE_GIFT)) throw new Error(`--set: no setting ${k}`);
  (WHOLE_GIFT as Record<string, number>)[k!] = Number(v);
}

const pairs = readPairs(csv);
const refs = new Map<string, Promise<Uint8Array>>();
const enrolled = (path: string): Promise<Uint8Array> => {
  let r = refs.get(path);
  if (!r) {
    r = sharp(path).rotate().jpeg({ quality: 85 }).toBuffer().then(async (b) => (await enrol(b)).reference);
    refs.set(path, r);
  }
  return r;
};

interface Row { reference: string; query: string; kind: string; label: boolean | undefined; match: boolean; inliers: number; looks: Vetting[]; textbook?: boolean }
// --textbook: the textbook ORB + RANSAC recipe (baseline.ts) on the same pairs, printed beside
const textbook = process.argv.includes('--textbook');
const baseRefs = new Map<string, Promise<Features>>();
const rows: Row[] = [];
let looks: (Vetting & { cells?: Cell[]; gx?: number })[] = [];
let lastCells: Cell[] | undefined;
let lastGx = 0;
if (rowsOut && process.argv.includes('--cells')) {
  debug.onCells = (c, gx) => {
    lastCells = c;
    lastGx = gx;
  };
}
trace.onLook = (v) => {
  looks.push(lastCells && v.check ? { ...v, cells: lastCells, gx: lastGx } : v);
  lastCells = undefined;
};
const cpu0 = process.cpuUsage();
for (const p of pairs) {
  looks = [];
  const d = await match(await browserCompress(await sharp(p.queryPath).toBuffer()), [[await enrolled(p.referencePath)]]);
  const row: Row = { reference: p.reference, query: p.query, kind: p.kind, label: p.label, match: d.matched, inliers: d.inliers, looks };
  if (textbook) {
    let r = baseRefs.get(p.referencePath);
    if (!r) baseRefs.set(p.referencePath, (r = sharp(p.referencePath).rotate().jpeg({ quality: 85 }).toBuffer().then(baselineExtract)));
    row.textbook = (await baselineMatch(await browserCompress(await sharp(p.queryPath).toBuffer()), [[await r]])).matched;
  }
  rows.push(row);
}
const cpu = process.cpuUsage(cpu0);
if (rowsOut) writeFileSync(rowsOut, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

const cells = (v: Vetting): string => {
  const c = v.check;
  if (!c) return `coverage ${v.coverage.toFixed(2)}, no appearance`;
  return `coverage ${v.coverage.toFixed(2)}; gift cells placed ${c.placed}/${c.cells}, agreeing ${c.structure} of ${c.textured} textured, unlike ${c.unlike} (${c.holes} of them enclosed), of another colour ${c.recoloured}${c.reason ? ` (refused: ${c.reason})` : ''}`;
};
const kinds = [...new Set(rows.map((r) => r.kind))];
console.log(`whole-gift check on ${csv}: ${rows.length} pairs, ${(((cpu.user + cpu.system) / 1000) / rows.length).toFixed(1)} ms CPU per pair (enrolment included)`);
console.log(`kind          pairs   matched   rate${textbook ? '     textbook ORB + RANSAC' : ''}`);
for (const k of kinds) {
  const of = rows.filter((r) => r.kind === k);
  const m = of.filter((r) => r.match).length;
  const t = of.filter((r) => r.textbook).length;
  console.log(`${k.padEnd(12)} ${String(of.length).padStart(6)} ${String(m).padStart(9)}   ${((100 * m) / of.length).toFixed(1).padStart(5)}%${textbook ? `   ${((100 * t) / of.length).toFixed(1).padStart(5)}% (${t})` : ''}`);
}
const falses = rows.filter((r) => r.label === false && r.match);
console.log(`\nfalse matches (${falses.length}), the look that decided each:`);
for (const r of falses.slice(0, worst)) {
  const v = r.looks.find((l) => l.passed);
  console.log(`  ${r.kind} ${r.query} -> ${r.reference}: ${v ? `${v.look} look, ${v.inliers} inliers, ${cells(v)}` : `${r.inliers} inliers`}`);
}
const refused = rows.filter((r) => r.label === true && !r.match && r.looks.some((l) => !l.passed));
console.log(`\ngenuine photos whose evidence reached a bar but was refused by the check (${refused.length}):`);
for (const r of refused.slice(0, worst)) {
  const v = r.looks.find((l) => !l.passed)!;
  console.log(`  ${r.query} -> ${r.reference}: ${v.look} look, ${v.inliers} inliers, ${cells(v)}`);
}
