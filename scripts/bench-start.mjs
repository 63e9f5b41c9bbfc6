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
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort, startProcess } from './lib/processes.mjs';
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
  const [command, ...argv] = VARIANTS[variant];
  try {
    // Its own process group: npm start's children are measured and stopped with it.
    const server = await startProcess({
      command,
      args: argv,
      url: `http://127.0.0.1:${port}/api/plans`,
      cwd: root,
      env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', RUN_JOBS: 'false', LOG_LEVEL: 'warn' },
      detached: true,
      intervalMs: 10,
    });
    try {
      const { pid } = server.child;
      const rssReady = rssOf(pid);
      await sleep(5000);
      return { ms: server.readyMs, rssReady, rssSettled: rssOf(pid), processes: tree(pid).length };
    } finally {
      await server.stop();
    }
  } finally {
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
