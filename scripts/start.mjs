#!/usr/bin/env node
// `npm start`: builds the web app only when the build is missing or older than its sources, then starts the
// server (a rebuild costs ~10 s of every start otherwise).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'package-lock.json',
];

/** The newest modification time under a file or folder. */
function newest(p) {
  if (!existsSync(p)) return 0;
  const info = statSync(p);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(p)) latest = Math.max(latest, newest(path.join(p, entry)));
  return latest;
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const changedAt = Math.max(...sources.map((s) => newest(path.join(root, s))));
if (builtAt < changedAt) {
  console.log(builtAt === 0 ? 'Building the web app…' : 'The web app changed since its last build: building it…');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else {
  console.log('The web app build is up to date.');
}
const server = spawn('npm', ['run', '-s', 'start', '-w', '@giftlens/server'], { cwd: root, stdio: 'inherit' });
// A process manager stops this script: the server gets the same signal and shuts down cleanly.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
