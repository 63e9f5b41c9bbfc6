/**
 * Leave-gifts-out cross-validation of the decision rule (README "Calibration"). Pure functions over an evidence
 * matrix: one row per (photo, reference) comparison with its one-to-one inliers and spread.
 *
 * In each fold some gifts are held out entirely (their photos and their references). On the other gifts:
 *  - for every candidate rule shape (a minimum spread S, and optionally one engine setting, `variant`), the bar T is
 *    the highest inlier count of any training impostor with spread >= S, plus the stated margin;
 *  - the shape that accepts the most training genuine photos wins; on a tie the higher bar (the spread condition is
 *    only used where it recovers genuine photos, not to trim the impostor tail, which over-fits: measured, see README).
 * The rule is then measured on the held-out gifts only: their genuine photos, and every impostor comparison that
 * involves a held-out gift (its photos against all other references, all photos against its reference).
 */

export interface Comparison {
  query: string;
  queryGift: string;
  refGift: string;
  kind: string;
  genuine: boolean;
  /** labelled impostor, but the photo really shows that gift too: left out of the impostor distribution */
  showsBoth: boolean;
  inliers: number;
  /** cells of the reference's 6x6 grid holding an inlier, 0..36 */
  spread: number;
  /** which engine setting produced this row, when several are compared */
  variant?: string;
}

export interface Rule {
  variant: string;
  minSpread: number;
  minInliers: number;
}

export const accepted = (c: Comparison, r: Rule): boolean => c.inliers >= r.minInliers && c.spread >= r.minSpread;

export interface FoldResult {
  fold: number;
  heldOut: string[];
  rule: Rule;
  /** worst training impostor under the rule's spread condition, and the worst held-out one */
  trainImpostorMax: number;
  heldImpostorMax: number;
  /** bar minus the worst held-out impostor: > 0 means no held-out false match */
  headroom: number;
  byKind: Record<string, { genuine: number; accepted: number; impostors: number; falseMatches: number; lowestGenuine: number }>;
}

/** Deterministic folds over gifts: each kind's gifts, sorted, dealt round-robin so every fold gets some of each. */
export function folds(gifts: string[], k: number): string[][] {
  const out: string[][] = Array.from({ length: k }, () => []);
  const kinds = [...new Set(gifts.map((g) => g.split(':')[0]!))].sort();
  let deal = 0;
  for (const kind of kinds) {
    for (const g of gifts.filter((x) => x.startsWith(`${kind}:`)).sort()) out[deal++ % k]!.push(g);
  }
  return out;
}

const impostor = (c: Comparison): boolean => !c.genuine && !c.showsBoth;
const maxInliers = (rows: Comparison[], minSpread: number): number =>
  rows.reduce((m, c) => (c.spread >= minSpread && c.inliers > m ? c.inliers : m), 0);

/** Chooses the rule on a training set: see the file comment. */
export function tune(train: Comparison[], margin: number, spreads: number[]): Rule {
  const variants = [...new Set(train.map((c) => c.variant ?? ''))].sort();
  // within one engine setting: most genuine accepted, then the higher bar (see the file comment); across settings,
  // on a tie, the setting whose impostor tail is lower (a looser setting raises impostors and its bar alike)
  let best: { rule: Rule; accepted: number; tail: number } | undefined;
  for (const variant of variants) {
    const rows = train.filter((c) => (c.variant ?? '') === variant);
    const imp = rows.filter(impostor);
    const gen = rows.filter((c) => c.genuine);
    const tail = maxInliers(imp, 0);
    for (const minSpread of spreads) {
      const rule = { variant, minSpread, minInliers: maxInliers(imp, minSpread) + margin };
      const n = gen.filter((c) => accepted(c, rule)).length;
      const wins =
        !best ||
        n > best.accepted ||
        (n === best.accepted && variant !== best.rule.variant && tail < best.tail) ||
        (n === best.accepted && variant === best.rule.variant && rule.minInliers > best.rule.minInliers);
      if (wins) best = { rule, accepted: n, tail };
    }
  }
  if (!best) throw new Error('no training comparisons');
  return best.rule;
}

/** Measures a rule on the comparisons that involve the held-out gifts. */
export function measure(rows: Comparison[], held: Set<string>, rule: Rule): Omit<FoldResult, 'fold' | 'heldOut' | 'trainImpostorMax'> {
  const mine = rows.filter((c) => (c.variant ?? '') === rule.variant);
  const gen = mine.filter((c) => c.genuine && held.has(c.queryGift));
  const imp = mine.filter((c) => impostor(c) && (held.has(c.queryGift) || held.has(c.refGift)));
  const byKind: FoldResult['byKind'] = {};
  for (const kind of [...new Set(mine.map((c) => c.kind))].sort()) {
    const g = gen.filter((c) => c.kind === kind);
    const i = imp.filter((c) => c.kind === kind);
    byKind[kind] = {
      genuine: g.length,
      accepted: g.filter((c) => accepted(c, rule)).length,
      impostors: i.length,
      falseMatches: i.filter((c) => accepted(c, rule)).length,
      lowestGenuine: g.length ? Math.min(...g.map((c) => c.inliers)) : NaN,
    };
  }
  const heldImpostorMax = maxInliers(imp, rule.minSpread);
  return { rule, heldImpostorMax, headroom: rule.minInliers - heldImpostorMax, byKind };
}

export function crossValidate(rows: Comparison[], k: number, margin: number, spreads: number[]): FoldResult[] {
  const gifts = [...new Set(rows.map((c) => c.queryGift))];
  return folds(gifts, k).map((heldOut, fold) => {
    const held = new Set(heldOut);
    const train = rows.filter((c) => !held.has(c.queryGift) && !held.has(c.refGift));
    const rule = tune(train, margin, spreads);
    const trainImpostorMax = maxInliers(train.filter((c) => (c.variant ?? '') === rule.variant && impostor(c)), rule.minSpread);
    return { fold, heldOut, trainImpostorMax, ...measure(rows, held, rule) };
  });
}

/**
 * The smallest margin whose bar, set on the training gifts of each fold, stays above every held-out impostor with
 * least `reserve` inliers (1 = merely no false match), in every fold: the margin the unseen gifts have shown they need.
 */
export function requiredMargin(rows: Comparison[], k: number, spreads: number[], reserve: number, upTo = 30): number {
  for (let m = 1; m <= upTo; m++) {
    if (crossValidate(rows, k, m, spreads).every((f) => f.headroom >= reserve)) return m;
  }
  return upTo;
}

export interface Spread3 {
  min: number;
  median: number;
  max: number;
}

export function spreadOf(xs: number[]): Spread3 {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return { min: NaN, median: NaN, max: NaN };
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { min: s[0]!, median: mid, max: s[s.length - 1]! };
}
