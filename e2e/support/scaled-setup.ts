import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import httpProxy from 'http-proxy';
import pg from 'pg';
import S3rver from 's3rver';
import { ARTIFACTS_DIR, RUNTIME_FILE, type E2ERuntime } from './paths.ts';
import { ensureServerBuild, freePort, spawnServerProcess, stopProcess, waitForAnswer } from './processes.ts';
import { PROXY_STATS_PATH, type ProxyStats } from './scaled-out.ts';
import { startSmtpServer } from './smtp.ts';
import { readAfterWrite } from '../../apps/server/test/helpers/s3.ts';

const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BUCKET = 'giftlens-scaled-out';
const S3_KEY = 'S3RVER';

/** The CORS rule the bucket needs so browsers can PUT and GET presigned URLs from the site (see operations.md). */
function corsRule(origin: string): string {
  return `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/**
 * A small round-robin proxy: request i goes to node i mod n, so a browser journey alternates between the API
 * nodes request by request and a state kept in one node's memory breaks it.
 */
function startRoundRobinProxy(targets: string[], port: number): Promise<{ server: Server; stats: ProxyStats }> {
  const proxy = httpProxy.createProxyServer({ xfwd: true });
  const stats: ProxyStats = { byNode: targets.map(() => 0) };
  let next = 0;
  proxy.on('error', (err, _req, res) => {
    const out = res as ServerResponse;
    if (!out.headersSent) out.writeHead(502, { 'content-type': 'text/plain' });
    out.end(`proxy: ${err.message}`);
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === PROXY_STATS_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    const i = next++ % targets.length;
    stats.byNode[i]! += 1;
    proxy.web(req, res, { target: targets[i] });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, stats })));
}

/**
 * The scaled-out topology, all on loopback: PostgreSQL (a fresh database), a local S3 server (s3rver), Redis,
 * a real SMTP server, two API processes that run no jobs, one worker process, and a round-robin proxy in front.
 * Every process has its own DATA_DIR, so nothing can lean on a shared disk.
 */
export default async function scaledSetup(): Promise<() => Promise<void>> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'giftlens-scaled-'));
  const mailDir = join(root, 'received-mail');
  const smtp = await startSmtpServer(mailDir);

  const database = `giftlens_scaled_${process.env.E2E_RUN_ID ?? process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(POSTGRES_ADMIN_URL);
  databaseUrl.pathname = `/${database}`;

  const proxyPort = await freePort();
  const baseURL = `http://127.0.0.1:${proxyPort}`;
  const s3Port = await freePort();
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: s3Port,
    silent: true,
    directory: join(root, 's3'),
    configureBuckets: [{ name: BUCKET, configs: [corsRule(baseURL)] }],
  });
  readAfterWrite(s3);
  await s3.run();

  const webPush = (await import('web-push')).default;
  const vapid = webPush.generateVAPIDKeys();
  const shared: NodeJS.ProcessEnv = {
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    PUBLIC_ORIGIN: baseURL,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    REDIS_URL,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: S3_KEY,
    S3_SECRET_ACCESS_KEY: S3_KEY,
    S3_FORCE_PATH_STYLE: 'true',
    // Every browser of the run asks for its sign-in codes from 127.0.0.1 (through the proxy).
    CODES_PER_CLIENT: '100000',
  };

  await ensureServerBuild();
  const apiPorts = [await freePort(), await freePort()];
  const apis = apiPorts.map((port, i) =>
    spawnServerProcess('main', { ...shared, PORT: String(port), DATA_DIR: join(root, `api-${i}`), RUN_JOBS: 'false' }),
  );
  const worker = spawnServerProcess('worker', { ...shared, DATA_DIR: join(root, 'worker'), RUN_JOBS: 'true' });
  const targets = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  await Promise.all(targets.map((t, i) => waitForAnswer(`${t}/api/health`, apis[i]!, { timeoutMs: 90_000, intervalMs: 250 })));
  if (worker.exitCode !== null) throw new Error(`The worker exited with code ${worker.exitCode}`);
  const proxy = await startRoundRobinProxy(targets, proxyPort);

  const runtime: E2ERuntime = { baseURL, mailDir, dataDir: join(root, 'api-0') };
  writeFileSync(RUNTIME_FILE, JSON.stringify(runtime));

  return async () => {
    await new Promise((r) => proxy.server.close(r));
    await Promise.all([...apis, worker].map((p) => stopProcess(p)));
    await s3.close();
    await smtp.close();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(root, { recursive: true, force: true });
  };
}

