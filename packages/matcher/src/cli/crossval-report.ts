/**
 * The cross-validation report (printed by `npm run -s crossval` and by the bench): leave-gifts-out folds over the
 * data set's gifts, the rule chosen on the training gifts of each fold, measured on the held-out gifts.
 */
import { CONFIG } from '../config.ts';
import { accepted, crossValidate, requiredMargin, spreadOf, tune, type Comparison, type FoldResult } from '../calibration.ts';
import { evidenceMatrix } from './evidence.ts';

export interface CrossvalOptions {
  csv: string;
  k: number;
  /** inliers between the worst training impostor and the bar */
  margin: number;
  /** inliers the bar must still clear above every held-out impostor (the margin "holds" when all of them do) */
  reserve: number;
  /** engine settings compared as part of the rule: values of CONFIG.ratio */
  ratios: number[];
  /** candidate minimum spreads, in cells of 36 */
  spreads: number[];
  log?: (s: string) => void;
}

export interface CrossvalOutcome {
  lines: string[];
  folds: FoldResult[];
  /** the rule chosen on all gifts with the same procedure (what the engine ships) */
  final: { ratio: number; minSpread: number; minInliers: number };
  marginHolds: boolean;
}

/** What the engine's constants were chosen with (README "Calibration"). */
export const CROSSVAL_DEFAULTS = {
  csv: '../shared/datasets/gift-photos/pairs.csv',
  k: 5,
  margin: 4,
  reserve: 2,
  ratios: [0.8],
  spreads: [0, 1, 2, 3, 4, 5, 6],
};

const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');

export async function crossval(o: CrossvalOptions): Promise<CrossvalOutcome> {
  const shipped = CONFIG.ratio;
  const rows: Comparison[] = [];
  let cpu = '';
  try {
    for (const ratio of o.ratios) {
      CONFIG.ratio = ratio;
      const m = await evidenceMatrix(o.csv, o.log);
      if (ratio === shipped || !cpu) cpu = m.extractMs ? `query extraction ${m.extractMs.toFixed(1)} ms, comparison ${m.compareMs.toFixed(1)} ms CPU` : 'from cache';
      for (const c of m.rows) rows.push({ ...c, variant: `ratio ${ratio}` });
    }
  } finally {
    CONFIG.ratio = shipped;
  }
  const folds = crossValidate(rows, o.k, o.margin, o.spreads);
  const lines: string[] = [];
  const one = rows.filter((c) => c.variant === `ratio ${o.ratios[0]}`);
  const nImp = one.filter((c) => !c.genuine && !c.showsBoth).length;
  lines.push(
    `cross-validation: ${o.k} folds over ${new Set(one.map((c) => c.queryGift)).size} gifts (leave gifts out: their photos and references), ` +
      `${one.filter((c) => c.genuine).length} genuine photos x every reference = ${one.length} comparisons per setting (${nImp} impostors, ` +
      `${one.filter((c) => c.showsBoth).length} photos that show both covers left out; ${cpu})`,
  );
  lines.push(
    `rule tuned per fold: ratio in {${o.ratios.join(', ')}}, min spread in {${o.spreads.join(', ')}}/36, bar = worst training impostor + margin ${o.margin}; ` +
      `the margin holds in a fold when the bar clears every held-out impostor by at least ${o.reserve}`,
  );
  const kinds = [...new Set(one.map((c) => c.kind))].sort();
  lines.push(
    `${'fold'.padEnd(5)}${'held out'.padEnd(22)}${'rule'.padEnd(28)}${'impostor max train/held'.padEnd(25)}${'headroom'.padEnd(10)}` +
      kinds.map((k) => `${k}: true-match, false, lowest genuine`.padEnd(46)).join(''),
  );
  for (const f of folds) {
    const objects = f.heldOut.filter((g) => g.startsWith('object:')).length;
    lines.push(
      `${String(f.fold + 1).padEnd(5)}${`${f.heldOut.length - objects} covers, ${objects} objects`.padEnd(22)}` +
        `${`${f.rule.variant}, >=${f.rule.minInliers} & >=${f.rule.minSpread}/36`.padEnd(28)}` +
        `${`${f.trainImpostorMax} / ${f.heldImpostorMax}`.padEnd(25)}${String(f.headroom).padEnd(10)}` +
        kinds
          .map((k) => {
            const b = f.byKind[k]!;
            return `${b.accepted}/${b.genuine} ${pct(b.accepted, b.genuine)}, ${b.falseMatches}/${b.impostors}, ${b.lowestGenuine}`.padEnd(46);
          })
          .join(''),
    );
  }
  for (const k of kinds) {
    const t = spreadOf(folds.map((f) => (f.byKind[k]!.genuine ? f.byKind[k]!.accepted / f.byKind[k]!.genuine : NaN)));
    const fm = spreadOf(folds.map((f) => f.byKind[k]!.falseMatches));
    const g = folds.reduce((a, f) => a + f.byKind[k]!.genuine, 0), acc = folds.reduce((a, f) => a + f.byKind[k]!.accepted, 0);
    const fmAll = folds.reduce((a, f) => a + f.byKind[k]!.falseMatches, 0);
    lines.push(
      `${k.padEnd(13)} held-out true-match min/median/max ${pct(t.min, 1)} / ${pct(t.median, 1)} / ${pct(t.max, 1)} (pooled ${acc}/${g} ${pct(acc, g)}); ` +
        `false matches per fold min/median/max ${fm.min} / ${fm.median} / ${fm.max} (total ${fmAll})`,
    );
  }
  const head = spreadOf(folds.map((f) => f.headroom));
  const marginHolds = folds.every((f) => f.headroom >= o.reserve);
  lines.push(`headroom (bar minus worst held-out impostor) min/median/max ${head.min} / ${head.median} / ${head.max}: margin ${marginHolds ? 'holds' : 'DOES NOT hold'} in every fold`);
  const need = requiredMargin(rows, o.k, o.spreads, o.reserve);
  lines.push(`smallest margin that would keep ${o.reserve} inlier(s) of headroom in every fold: ${need}`);
  const rule = tune(rows, o.margin, o.spreads);
  const ratio = Number(rule.variant.replace('ratio ', ''));
  const all = rows.filter((c) => c.variant === rule.variant);
  const gAll = all.filter((c) => c.genuine);
  lines.push(
    `on all gifts the same procedure chooses: ${rule.variant}, inliers >= ${rule.minInliers}, spread >= ${rule.minSpread}/36 ` +
      `(engine ships ratio ${shipped}, >= ${CONFIG.minInliers}, >= ${Math.round(CONFIG.minSpread * 36)}/36); it accepts ${gAll.filter((c) => accepted(c, rule)).length}/${gAll.length} genuine photos`,
  );
  return { lines, folds, final: { ratio, minSpread: rule.minSpread, minInliers: rule.minInliers }, marginHolds };
}
