#!/usr/bin/env node
// `npm test`: the whole suite. Unit, service and HTTP tests (SQLite and PostgreSQL) and the web app's
// component/hook tests in Chromium (vitest.config.ts: projects `node` and `web-browser`) under Vitest,
// then the build, whose routes must keep within their JavaScript budgets (apps/web/route-budgets.json,
// decision 046), then the browser tests under Playwright on that same build, in a real Chromium, which this
// script finds or installs first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureChromium } from './lib/chromium.mjs';

function run(cmd, args, env = process.env) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (res.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
}

const started = Date.now();
const chrome = ensureChromium();
const env = { ...process.env, CHROME_PATH: chrome };

run('npx', ['vitest', 'run'], env);
run('npm', ['run', '-s', 'build'], env);
if (!existsSync('apps/web/dist/index.html')) {
  console.error('The web build produced no apps/web/dist/index.html');
  process.exit(1);
}
run('node', ['scripts/check-route-budgets.mjs'], env);
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], env);
console.log(`\n✓ whole suite passed in ${Math.round((Date.now() - started) / 1000)} s`);
