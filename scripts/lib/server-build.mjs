// The server's production build: esbuild bundles apps/server/src/main.ts, worker.ts and staff-cli.ts (the operator's
// command), with the workspace packages (contract, matcher) inlined and every npm package left to node_modules, into
// apps/server/dist/ (decision 022).
// The matcher's worker thread gets its own bundle, dist/worker-entry.mjs: the pool finds it beside the code that
// starts it (new URL('./worker-entry.mjs', import.meta.url)), as it finds src/worker-entry.mjs in the sources.
// main and worker are split: a module the sources import with import() (the Stripe and S3 adapters) is a chunk of
// its own, loaded, with the npm package it imports, only when that feature is configured; what both entries share
// is a chunk too. Chunks sit beside the entries, so import.meta.url means the same folder in every one of them.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
export const SERVER_DIST = path.join(root, 'apps/server/dist');
const MARK = path.join(SERVER_DIST, 'main.js');
/** What the build is made of: a change to any makes it stale. */
const SOURCES = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contract/src',
  'packages/matcher/src',
  'package-lock.json',
  'scripts/lib/server-build.mjs',
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

/** Whether the file `built` is missing or older than anything under `sources` (paths from the repository root). */
export function isStale(built, sources) {
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  return builtAt < Math.max(...sources.map((s) => newest(path.join(root, s))));
}

export const serverBuildIsStale = () => isStale(MARK, SOURCES);

/** Every bare import but our own workspace packages stays external (resolved from node_modules at run time). */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@giftlens/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Builds into `outdir` (the server's dist/ unless a test says otherwise); returns the milliseconds it took. */
export async function buildServer({ outdir = SERVER_DIST } = {}) {
  const esbuild = await import('esbuild');
  const t0 = performance.now();
  const tmp = `${outdir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // decision 022: names kept, so logs and stack traces read like the sources
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackages],
  };
  await esbuild.build({
    ...common,
    entryPoints: {
      main: path.join(root, 'apps/server/src/main.ts'),
      worker: path.join(root, 'apps/server/src/worker.ts'),
      'staff-cli': path.join(root, 'apps/server/src/staff-cli.ts'),
    },
    // Without it, import('./adapters/stripe.ts') is inlined and `import Stripe from "stripe"` hoisted to the top of
    // main.js: every start would load the package (decision 022).
    splitting: true,
    outdir: tmp,
  });
  await esbuild.build({
    ...common,
    entryPoints: { 'worker-entry': path.join(root, 'packages/matcher/src/worker.ts') },
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
  });
  // esbuild's service process would otherwise live as long as this one (the server, under npm start)
  await esbuild.stop();
  // The matcher's WebAssembly kernels (Hamming matching, ORB descriptors) are read next to the bundle.
  const matcherSrc = path.join(root, 'packages/matcher/src');
  for (const file of readdirSync(matcherSrc).filter((f) => f.endsWith('.wasm')))
    copyFileSync(path.join(matcherSrc, file), path.join(tmp, file));
  // Swapped in whole: a server starting meanwhile never sees half a build.
  rmSync(outdir, { recursive: true, force: true });
  renameSync(tmp, outdir);
  return performance.now() - t0;
}

/** Builds when the build is missing or older than its sources; says which. */
export async function buildServerIfStale({ log = () => {} } = {}) {
  if (!serverBuildIsStale()) {
    log('The server build is up to date.');
    return false;
  }
  log(existsSync(MARK) ? 'The server changed since its last build: building it…' : 'Building the server…');
  const ms = await buildServer();
  log(`Server built in ${(ms / 1000).toFixed(1)} s.`);
  return true;
}
