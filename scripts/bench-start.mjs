#!/usr/bin/env node
/**
 * npm run bench:start [-- --runs N] [--postgres] [variant ...]
 * Start-up of the server as production runs it: the time from spawning the command to the first 200 from
 * GET /api/plans, and the resident memory (RSS, summed over the whole process tree: npm, tsx and node processes
 * alike) right then and 5 s later (the matcher's workers have loaded OpenCV by then). Each figure is the median of
 * N runs (default 3), in a fresh DATA_DIR on SQLite (or a fresh PostgreSQL database with --postgres).
 * Variants (default: js npm-start):
 *   js         node apps/server/dist/main.js          (the compiled server, built first when stale)
 *   tsx        node --import tsx apps/server/src/main.ts   (TypeScript compiled at every start)
 *   npm-start  npm start                              (what the README runs: build check, then the server)
 * It prints figures with the load average; it does not fail on any threshold.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildServerIfStale } from './lib/server-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const POSTGRES = args.includes('--postgres');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const VARIANTS = {
  js: [process.execPath, 'apps/server/dist/main.js'],
  tsx: [process.execPath, '--import', 'tsx', 'apps/server/src/main.ts'],
  'npm-start': ['npm', 'start'],
};
const chosen = args.filter((a, i) => a in VARIANTS && args[i - 1] !== '--runs');
const variants = chosen.length > 0 ? chosen : ['js', 'npm-start'];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The pid and every descendant, from /proc. */
function tree(pid) {
  const out = [pid];
  for (const task of safeList(`/proc/${pid}/task`)) {
    const children = safeRead(`/proc/${pid}/task/${task}/children`).trim();
    for (const child of children ? children.split(/\s+/) : []) out.push(...tree(Number(child)));
  }
  return out;
}
const safeList = (dir) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const safeRead = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
/** RSS in MB summed over a process tree. */
const rssOf = (pid) =>
  tree(pid).reduce((sum, p) => sum + Number(/VmRSS:\s+(\d+)/.exec(safeRead(`/proc/${p}/status`))?.[1] ?? 0), 0) / 1024;

async function once(variant, databaseUrl) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-start-'));
  const port = await freePort();
  const [cmd, ...argv] = VARIANTS[variant];
  const t0 = performance.now();
  const child = spawn(cmd, argv, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', RUN_JOBS: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    let ready = NaN;
    while (Number.isNaN(ready)) {
      if (child.exitCode !== null) throw new Error(`${variant} exited with ${child.exitCode}`);
      if (performance.now() - t0 > 60_000) throw new Error(`${variant}: no answer in 60 s`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/plans`);
        if (res.ok) ready = performance.now() - t0;
      } catch {
        await sleep(10);
      }
    }
    const rssReady = rssOf(child.pid);
    await sleep(5000);
    return { ms: ready, rssReady, rssSettled: rssOf(child.pid), processes: tree(child.pid).length };
  } finally {
    // the whole group: npm and its children too
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function withDatabase(run) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const results = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const name = `giftlens_start_${process.pid}_${i}`;
      await admin.query(`create database ${name}`);
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      try {
        results.push(await run(url.toString()));
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
      }
    }
  } finally {
    await admin.end();
  }
  return results;
}

if (variants.includes('js')) await buildServerIfStale({ log: (line) => console.log(line) });
console.log(`bench:start — ${RUNS} runs each, ${POSTGRES ? 'PostgreSQL' : 'SQLite'}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('variant     first answer  RSS at first answer  RSS 5 s later  processes');
for (const variant of variants) {
  const results = [];
  if (POSTGRES) results.push(...(await withDatabase((url) => once(variant, url))));
  else for (let i = 0; i < RUNS; i++) results.push(await once(variant, null));
  const m = (k) => median(results.map((r) => r[k]));
  console.log(
    `${variant.padEnd(12)}${`${(m('ms') / 1000).toFixed(2)} s`.padEnd(14)}${`${m('rssReady').toFixed(0)} MB`.padEnd(21)}${`${m('rssSettled').toFixed(0)} MB`.padEnd(15)}${m('processes')}`,
  );
}
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
