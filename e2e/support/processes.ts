import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { buildServerIfStale } from '../../scripts/lib/server-build.mjs';
import { REPO_DIR } from './paths.ts';

// The one set of process helpers (free port, wait for the first answer, stop), shared with the server's benchmarks,
// fault tests and the scripts.
export { freePort, stopProcess, waitForAnswer } from '../../scripts/lib/processes.mjs';

/** Builds the server when its build is missing or stale (0.1 s), so the browser tests run what production runs. */
export const ensureServerBuild = () => buildServerIfStale();

/**
 * The server's own entry points as production runs them (`npm start`, `npm run worker`): the compiled JavaScript
 * in apps/server/dist (call `ensureServerBuild` first).
 */
export function spawnServerProcess(entry: 'main' | 'worker', env: NodeJS.ProcessEnv): ChildProcess {
  // Stack traces name the TypeScript sources, as under `npm start`.
  return spawn(process.execPath, ['--enable-source-maps', join('apps/server/dist', `${entry}.js`)], {
    cwd: REPO_DIR,
    env: {
      ...process.env,
      WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? join(REPO_DIR, 'apps/web/dist'),
      LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
