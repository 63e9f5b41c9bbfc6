#!/usr/bin/env node
/**
 * Fails when a route of the built web app loads more JavaScript before interaction than its budget
 * (apps/web/route-budgets.json; decision 046). Part of `npm test`, on the build the browser tests use.
 *
 *   node scripts/check-route-budgets.mjs [--dist apps/web/dist] [--budgets apps/web/route-budgets.json]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatReport, measureRoutes, readBuild } from './lib/route-js.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback;
};
const dist = option('--dist', join(root, 'apps/web/dist'));
const budgetsFile = option('--budgets', join(root, 'apps/web/route-budgets.json'));

if (!existsSync(join(dist, '.vite/manifest.json'))) {
  console.error(`No build at ${dist} (.vite/manifest.json is missing): run npm run build:web first.`);
  process.exit(1);
}
const result = measureRoutes({ ...readBuild(dist), budgets: JSON.parse(readFileSync(budgetsFile, 'utf8')) });
console.log(`JavaScript each route loads before interaction (gzip -9, 1 KB = 1024 bytes), ${dist}:\n`);
console.log(formatReport(result));
const over = result.rows.filter((r) => r.over);
if (over.length || result.problems.length) {
  console.error(`\n✗ route budgets: ${over.length} route(s) over budget${result.problems.length ? `, ${result.problems.length} problem(s)` : ''}`);
  process.exit(1);
}
console.log('\n✓ every route within its budget');
