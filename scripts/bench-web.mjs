#!/usr/bin/env node
/**
 * npm run bench:web — Lighthouse (mobile preset) on a page of the built app served by the real server (`/` unless
 * --path says otherwise), plus the gzip size of the JavaScript that page loads before any interaction and of every
 * lazily loaded chunk.
 *
 *   node scripts/bench-web.mjs [--no-build] [--runs N] [--url http://host:port] [--path /send]
 *   (--no-build measures the existing apps/web/dist, or --dist DIR; otherwise a fresh build goes to a temporary folder)
 *
 * Targets: Performance ≥ 95, Accessibility 100, Best Practices 100, SEO 100, initial JS ≤ 110 KB
 * gzip on `/` and ≤ 160 KB elsewhere (KB = 1024 bytes, gzip level 9). Every route's JS is checked against its
 * budget in npm test (scripts/check-route-budgets.mjs, decision 046); this measures what one page really loads.
 * It prints figures; it does not fail on a missed target (tests assert behaviour, benchmarks measure).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { freePort, startProcess } from './lib/processes.mjs';
import { staticClosure } from './lib/route-js.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const RUNS = Math.max(1, Number(option('--runs', '3')));
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
];
// Several people build in this checkout: unless told to reuse apps/web/dist, build into a private folder.
const reuseDist = args.includes('--no-build') || args.includes('--url');
const dist = reuseDist ? option('--dist', join(root, 'apps/web/dist')) : mkdtempSync(join(tmpdir(), 'giftlens-bench-dist-'));
const KB = 1024;
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };
const PATH = option('--path', '/');
const INITIAL_JS_TARGET = (PATH === '/' ? 110 : 160) * KB;

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

async function launch(kind, port) {
  const dataDir = mkdtempSync(join(tmpdir(), 'giftlens-bench-'));
  const server = kind === 'server';
  const origin = `http://127.0.0.1:${port}`;
  try {
    const { stop } = await startProcess({
      command: 'npx',
      args: server ? ['tsx', 'apps/server/src/main.ts'] : ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
      url: server ? `${origin}/api/health` : origin,
      cwd: server ? root : join(root, 'apps/web'),
      env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST_DIR: dist, LOG_LEVEL: 'warn' },
      stderr: 'capture',
      detached: true,
      timeoutMs: 90_000,
      intervalMs: 300,
    });
    return {
      origin,
      kind: server ? 'apps/server via tsx' : 'vite preview',
      stop: async () => {
        await stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** The real server with the built app; `vite preview` only when the server cannot start in this checkout. */
async function startServer() {
  const port = await freePort();
  if (existsSync(join(root, 'apps/server/src/main.ts'))) {
    try {
      return await launch('server', port);
    } catch (err) {
      console.warn(`apps/server did not start, measuring with vite preview instead:\n${err.message}\n`);
    }
  }
  return launch('preview', await freePort());
}

/** JS reachable from index.html through static imports: what every page needs before it can render. */
function staticGraph() {
  return staticClosure(JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')), ['index.html']);
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function lighthouseRuns(url) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const results = [];
  for (let i = 0; i < RUNS; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      const { lhr } = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: Object.keys(TARGETS),
      });
      results.push(lhr);
    } finally {
      await chrome.kill();
    }
  }
  return results;
}

async function main() {
  if (!flag('--no-build') && !option('--url')) {
    console.log(`Building apps/web into ${dist} …`);
    const build = spawnSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir'], {
      cwd: join(root, 'apps/web'),
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    if (build.status !== 0) {
      console.error(build.stderr);
      process.exit(build.status ?? 1);
    }
  }
  const server = option('--url') ? { origin: option('--url'), stop: async () => {}, kind: 'given URL' } : await startServer();
  let lhrs;
  try {
    console.log(`Lighthouse ${RUNS}× on ${server.origin}${PATH} (${server.kind}), mobile preset, ${CHROMIUM}`);
    lhrs = await lighthouseRuns(`${server.origin}${PATH}`);
  } finally {
    await server.stop();
  }

  console.log('\nCategory          score (median; runs)   target');
  const missed = [];
  for (const [id, target] of Object.entries(TARGETS)) {
    const scores = lhrs.map((l) => Math.round((l.categories[id]?.score ?? 0) * 100));
    const m = median(scores);
    if (m < target) missed.push(id);
    console.log(`${lhrs[0].categories[id].title.padEnd(18)}${String(m).padStart(3)}  (${scores.join(', ')})`.padEnd(40) + `≥ ${target}${m < target ? '  MISSED' : ''}`);
  }
  const metric = (id) => median(lhrs.map((l) => l.audits[id]?.numericValue ?? 0));
  console.log(
    `\nFCP ${(metric('first-contentful-paint') / 1000).toFixed(2)} s · LCP ${(metric('largest-contentful-paint') / 1000).toFixed(2)} s · ` +
      `TBT ${Math.round(metric('total-blocking-time'))} ms · CLS ${metric('cumulative-layout-shift').toFixed(3)} · SI ${(metric('speed-index') / 1000).toFixed(2)} s`,
  );
  for (const lhr of lhrs) {
    const failing = Object.values(lhr.audits).filter(
      (a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual' &&
        Object.values(lhr.categories).some((c) => c.id !== 'performance' && c.auditRefs.some((r) => r.id === a.id && r.weight > 0)),
    );
    if (failing.length) console.log(`  failing audits: ${failing.map((a) => a.id).join(', ')}`);
  }

  // JavaScript the page loaded during the Lighthouse run (no interaction happens in it), measured from the build.
  const requests = lhrs[0].audits['network-requests']?.details?.items ?? [];
  const loaded = [...new Set(requests.filter((r) => r.resourceType === 'Script').map((r) => new URL(r.url).pathname.slice(1)))];
  const graph = staticGraph();
  const initial = [...new Set([...graph, ...loaded.filter((f) => existsSync(join(dist, f)))])];
  const initialBytes = initial.reduce((sum, f) => sum + gz(join(dist, f)), 0);
  console.log(`\nJavaScript loaded by ${PATH} before interaction (gzip -9): ${kb(initialBytes)}  target ≤ ${kb(INITIAL_JS_TARGET)}${initialBytes > INITIAL_JS_TARGET ? '  MISSED' : ''}`);
  for (const f of initial) console.log(`  ${kb(gz(join(dist, f))).padStart(9)}  ${f}${graph.includes(f) ? '' : '  (loaded after start-up)'}`);

  const lazy = readdirSync(join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') && !initial.includes(`assets/${f}`))
    .map((f) => ({ f, size: gz(join(dist, 'assets', f)), raw: statSync(join(dist, 'assets', f)).size }))
    .sort((a, b) => b.size - a.size);
  console.log(`\nLazy chunks (${lazy.length}, gzip -9):`);
  for (const { f, size } of lazy) console.log(`  ${kb(size).padStart(9)}  assets/${f}`);
  const sw = ['sw.js', ...readdirSync(dist).filter((f) => /^workbox-.*\.js$/.test(f))];
  console.log(`\nService worker (after load): ${sw.map((f) => `${f} ${kb(gz(join(dist, f)))}`).join(', ')}`);

  if (missed.length || initialBytes > INITIAL_JS_TARGET) console.log(`\nTargets missed: ${[...missed, ...(initialBytes > INITIAL_JS_TARGET ? ['initial-js'] : [])].join(', ')}`);
  else console.log('\nAll targets met.');
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!reuseDist) rmSync(dist, { recursive: true, force: true });
  });
