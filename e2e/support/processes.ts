import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_DIR } from './paths.ts';

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolvePort(port));
    });
  });
}

/** Waits until `url` answers 2xx; fails at once if the process exits first. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The process behind ${url} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

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

/** SIGTERM, then wait for the exit (the server drains and closes its connections). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
