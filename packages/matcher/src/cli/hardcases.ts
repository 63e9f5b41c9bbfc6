/**
 * npm run -s hardcases -w @giftlens/matcher [-- --pairs PAIRS.csv --seed 15 --step 2 --impostors 2 --out DIR]
 * The hard-case table (hardcase-gen.ts): true and false matches per condition. Images go to DIR (default: the temp
 * folder's giftlens-matcher/hardcases), never into git.
 */
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { argValue } from './dataset.ts';
import { hardcases } from './hardcase-report.ts';

const t0 = Date.now();
const { lines } = await hardcases({
  csv: argValue('--pairs', '../shared/datasets/gift-photos/pairs.csv')!,
  seed: Number(argValue('--seed', '15')),
  step: Number(argValue('--step', '2')),
  impostors: Number(argValue('--impostors', '2')),
  outDir: argValue('--out', join(tmpdir(), 'giftlens-matcher', 'hardcases'))!,
});
for (const l of lines) console.log(l);
console.log(`${((Date.now() - t0) / 1000).toFixed(0)} s, load average ${loadavg()[0]!.toFixed(1)}`);
