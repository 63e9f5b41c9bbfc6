#!/usr/bin/env node
// `npm start` / `npm run worker`: builds what is missing or older than its sources (the web app with Vite, the
// server with esbuild: a rebuild costs ~10 s and ~1 s of every start otherwise), then runs the compiled server
// (or, with --worker, the job worker) in this very process: no npm, tsx or second node process stays behind it,
// and a process manager's signals reach the server directly (decision 022).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServerIfStale, isStale, SERVER_DIST } from './lib/server-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const worker = process.argv.includes('--worker');

/** What the web build is made of: a change to any makes it stale. */
const WEB_SOURCES = [
  'apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json',
  'packages/contract/src', 'package-lock.json',
];

if (!worker) {
  const built = path.join(root, 'apps/web/dist/index.html');
  if (isStale(built, WEB_SOURCES)) {
    console.log(existsSync(built) ? 'The web app changed since its last build: building it…' : 'Building the web app…');
    const build = spawnSync('npm', ['run', '-s', 'build:web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  } else {
    console.log('The web app build is up to date.');
  }
}

await buildServerIfStale({ log: (line) => console.log(line) });
// Stack traces name the TypeScript sources (dist/*.js.map).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(SERVER_DIST, worker ? 'worker.js' : 'main.js')).href);
