import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpServer } from './smtp.ts';
import { ARTIFACTS_DIR, REPO_DIR, RUNTIME_FILE, type E2ERuntime } from './paths.ts';

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The app server did not answer ${url} within ${timeoutMs} ms`);
}

/**
 * The real app server on a free loopback port (built web app, SQLite in `dataDir`, mail to the local SMTP server),
 * with `env` added (a spec that needs its own configuration, e.g. Stripe keys); answers once /api/health does.
 */
export async function startAppServer(opts: {
  dataDir: string;
  smtpPort: number;
  env?: Record<string, string>;
}): Promise<{ server: ChildProcess; baseURL: string }> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      DATABASE_URL: '',
      PUBLIC_ORIGIN: baseURL,
      SMTP_URL: `smtp://127.0.0.1:${opts.smtpPort}`,
      WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? join(REPO_DIR, 'apps/web/dist'),
      LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(`${baseURL}/api/health`, server, 60_000);
  return { server, baseURL };
}

/** Starts a real local SMTP server and the real app server (built web app, fresh SQLite data folder). */
export default async function globalSetup(): Promise<() => Promise<void>> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'giftlens-e2e-'));
  const mailDir = join(dataDir, 'received-mail');
  const smtp = await startSmtpServer(mailDir);
  const { server, baseURL } = await startAppServer({ dataDir, smtpPort: smtp.port });

  const runtime: E2ERuntime = { baseURL, mailDir, dataDir };
  writeFileSync(RUNTIME_FILE, JSON.stringify(runtime));

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
