/**
 * npm run -s crossval -w @giftlens/matcher [-- --pairs PAIRS.csv --k 5 --margin 4 --reserve 2 --ratios 0.8,0.85,0.9]
 * Leave-gifts-out cross-validation of the decision rule and the ratio-test constant (README "Calibration"): per fold,
 * the rule tuned on the other gifts and its true/false matches on the held-out ones, then the spread over folds.
 * Exits 1 if the margin does not hold in every fold. The evidence is cached in the temp folder.
 */
import { loadavg } from 'node:os';
import { argValue } from './dataset.ts';
import { crossval, CROSSVAL_DEFAULTS } from './crossval-report.ts';

const list = (s: string): number[] => s.split(',').map(Number);
const out = await crossval({
  csv: argValue('--pairs', CROSSVAL_DEFAULTS.csv)!,
  k: Number(argValue('--k', String(CROSSVAL_DEFAULTS.k))),
  margin: Number(argValue('--margin', String(CROSSVAL_DEFAULTS.margin))),
  reserve: Number(argValue('--reserve', String(CROSSVAL_DEFAULTS.reserve))),
  ratios: list(argValue('--ratios', CROSSVAL_DEFAULTS.ratios.join(','))!),
  spreads: list(argValue('--spreads', CROSSVAL_DEFAULTS.spreads.join(','))!),
  log: (s) => console.error(s),
});
for (const l of out.lines) console.log(l);
console.log(`load average ${loadavg()[0]!.toFixed(1)}`);
if (!out.marginHolds) process.exitCode = 1;
