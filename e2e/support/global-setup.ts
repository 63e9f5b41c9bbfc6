import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpServer } from './smtp.ts';
import { ARTIFACTS_DIR, RUNTIME_FILE, type E2ERuntime } from './paths.ts';
import { freePort, spawnServerProcess, stopProcess, waitForHealth } from './processes.ts';

/** Starts a real local SMTP server and the real app server (built web app, fresh SQLite data folder). */
export default async function globalSetup(): Promise<() => Promise<void>> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'giftlens-e2e-'));
  const mailDir = join(dataDir, 'received-mail');
  const smtp = await startSmtpServer(mailDir);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;

  const server = spawnServerProcess('main', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PUBLIC_ORIGIN: baseURL,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  });
  await waitForHealth(`${baseURL}/api/health`, server, 60_000);

  const runtime: E2ERuntime = { baseURL, mailDir, dataDir };
  writeFileSync(RUNTIME_FILE, JSON.stringify(runtime));

  return async () => {
    await stopProcess(server);
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
