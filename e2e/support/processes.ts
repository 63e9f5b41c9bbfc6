import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_DIR } from './paths.ts';

// The one set of process helpers (free port, wait for the first answer, stop), shared with the server's benchmarks,
// fault tests and the scripts.
export { freePort, stopProcess, waitForAnswer } from '../../scripts/lib/processes.mjs';

/** The server's own entry points, run from the TypeScript sources as `npm start` and `npm run worker` do. */
export function spawnServerProcess(entry: 'main' | 'worker', env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join('apps/server/src', `${entry}.ts`)], {
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
