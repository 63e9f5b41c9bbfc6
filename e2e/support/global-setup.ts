import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpServer } from './smtp.ts';
import { ARTIFACTS_DIR, HEALTH, RUNTIME_FILE, type E2ERuntime } from './paths.ts';
import { ensureServerBuild, freePort, spawnServerProcess, stopProcess, waitForAnswer } from './processes.ts';

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
  await ensureServerBuild();
  const server = spawnServerProcess('main', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    DATABASE_URL: '',
    PUBLIC_ORIGIN: baseURL,
    SMTP_URL: `smtp://127.0.0.1:${opts.smtpPort}`,
    // Every browser of the run scans from 127.0.0.1: one client address's live-frame budget would not last the run.
    LIVE_SCAN_PER_CLIENT: '100000',
    // …and every sign-in of the run asks for its code from 127.0.0.1 too.
    CODES_PER_CLIENT: '100000',
    // A render lane per Playwright worker: with the default one, a 720p reaction one test records (43 s measured on
    // a loaded 2-core machine) holds up the other worker's message, whose test then waits on a queue it never made.
    RENDER_CONCURRENCY: process.env.E2E_WORKERS ?? '2',
    ...opts.env,
  });
  await waitForAnswer(`${baseURL}${HEALTH}`, server, { timeoutMs: 60_000, intervalMs: 250 });
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
    await stopProcess(server);
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
