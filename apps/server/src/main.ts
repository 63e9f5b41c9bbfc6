import { CODE_LIMITS, LIVE_SCAN } from '@giftlens/contract/constants';
import { threadpoolSize, threadpoolWanted } from '@giftlens/matcher/index';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { configOrExit, isLoopbackHost, REPO_ROOT } from './config.ts';
import { startJobs } from './composition.ts';
import { createServerInfrastructure } from './infrastructure.ts';
import type { JobRunner } from './jobs/runner.ts';
import { listen, type Listening } from './lib/listen.ts';
import { failStartup, startupProblem } from './lib/startup-failure.ts';
import { sweepOwnStaleParts } from './modules/housekeeping/own-parts.ts';

const config = configOrExit();
const infra = await createServerInfrastructure(config, {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
}).catch((err: unknown) => failStartup(err, startupProblem(err, config, 'database')));
let jobs: JobRunner | null = null;
let listening: Listening | null = null;
let stopSweep: (() => void) | null = null;

const app = await buildApp({
  db: infra.db,
  media: infra.media,
  mailer: infra.mailer,
  clock: infra.clock,
  payments: infra.payments,
  rateLimitStore: infra.rateLimitStore,
  sessionSecret: infra.sessionSecret,
  secureCookies: config.secureCookies,
  trustProxy: config.trustProxy,
  webDistDir: config.webDistDir,
  logger: { level: config.logLevel },
  recogniser: infra.recogniser,
  liveScanLimit: { ...LIVE_SCAN, perClient: config.liveScanPerClient },
  codeLimits: { ...CODE_LIMITS, perClient: config.codesPerClient },
  // The built app in production; the source public folder too, so the demo works before a build.
  demoImageDirs: [config.webDistDir, path.join(REPO_ROOT, 'apps/web/public')],
  push: { publicKey: infra.push.publicKey, allowedHosts: config.pushServiceHosts },
  whatsappEnabled: infra.whatsapp !== null,
  mediaProcessor: infra.processor,
  scratch: infra.scratch,
  publicOrigin: config.publicOrigin,
  wakeJobs: () => jobs?.wake(),
  testClock: infra.testClock,
  metrics: infra.metrics,
  metricsToken: config.metrics.token,
  staffEmails: config.staffEmails,
  webhookAllowHttpHosts: config.webhookAllowHttpHosts,
});

app.log.info(
  {
    database: config.database.kind,
    migrationsApplied: infra.migrationsApplied,
    mail: config.mail.kind,
    payments: { INR: infra.payments.INR.name, USD: infra.payments.USD.name },
    whatsapp: infra.whatsapp ? 'cloud-api' : 'off',
    jobs: config.runJobs ? 'in this process' : 'in separate workers (RUN_JOBS=false)',
    dataDir: config.dataDir,
  },
  'GiftLens server starting',
);
// Each matcher worker decodes its scan's photo on libuv's threadpool, one per process (decision 045): with fewer
// threads than workers + 4, scans queue for it and the process stops scaling before its cores run out.
if (threadpoolSize() < threadpoolWanted(availableParallelism())) {
  app.log.warn(
    `matcher: libuv's threadpool has ${threadpoolSize()} threads for ${availableParallelism()} matcher workers; set UV_THREADPOOL_SIZE=${threadpoolWanted(availableParallelism())} in this process's environment (docs/operations.md, "Many cores")`,
  );
}
if (infra.testClock) app.log.warn("TEST_CLOCK is on: POST /api/test/clock moves this server's clock forward (browser tests only)");
// The test checkout marks orders paid for free. On for a loopback origin, the server listens on loopback only
// (config.ts refuses any other HOST); with PAYMENTS=test, a test deployment, it may listen beyond: say so.
if (Object.values(infra.payments).some((p) => p.name === 'test') && !isLoopbackHost(config.host)) {
  app.log.warn(
    `payments: the built-in test checkout is on (PAYMENTS=test) and the server listens on ${config.host}: anyone who reaches port ${config.port} can mark orders paid without money. Set the providers' keys, or HOST=127.0.0.1.`,
  );
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  try {
    await jobs?.stop();
    stopSweep?.();
    listening?.close();
    await app.close();
    await infra.close();
  } finally {
    clearTimeout(force);
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

listening = await listen(app, { host: config.host, port: config.port, warn: (line) => app.log.warn(line) }).catch((err: unknown) =>
  failStartup(err, startupProblem(err, config, 'listen')),
);
app.log.info({ addresses: listening.addresses }, `GiftLens is listening on ${config.publicOrigin}`);
// Deliveries, notices and housekeeping: see docs/decisions/013-jobs.md.
if (config.runJobs && !closing) jobs = await startJobs(infra, config, app.log);
// Without jobs here, housekeeping runs on the workers and never sees this node's staged uploads: it sweeps its own.
if (!config.runJobs && !closing) stopSweep = sweepOwnStaleParts({ media: infra.media, clock: infra.clock, log: app.log });
