import pino from 'pino';
import { configOrExit } from './config.ts';
import { startJobs } from './composition.ts';
import { createInfrastructure } from './infrastructure.ts';
import { serveMetrics } from './lib/metrics.ts';
import { failStartup, startupProblem } from './lib/startup-failure.ts';

/**
 * `npm run worker`: the job runner alone, for machines that only send deliveries and notices and keep house.
 * Any number may run beside the API nodes (on PostgreSQL; on SQLite, on the machine that holds the file).
 */
// A worker takes no payments: the providers' keys are the API nodes' business.
const config = configOrExit({ takesPayments: false });

const log = pino({ level: config.logLevel, base: { role: 'worker', pid: process.pid } });
// Its matcher's pool (one thread) starts only when housekeeping has a photo to rate or to enrol again (a worker
// otherwise never matches).
const infra = await createInfrastructure(config, { info: (line) => log.info(line), warn: (line) => log.warn(line) }, { recogniser: { size: 1 } }).catch(
  (err: unknown) => failStartup(err, startupProblem(err, config, 'database')),
);
const jobs = await startJobs(infra, config, log);
// Its jobs, renders, mails and pushes for Prometheus, with the API nodes' bearer token (docs/operations.md).
const { token: metricsToken, port: metricsPort, host: metricsHost } = config.metrics;
const metricsServer =
  metricsToken && metricsPort
    ? await serveMetrics(infra.metrics, { host: metricsHost, port: metricsPort, token: metricsToken }).catch((err: unknown) =>
        failStartup(err, `METRICS_PORT: could not listen on ${metricsHost}:${metricsPort} (${err instanceof Error ? err.message : String(err)})`),
      )
    : null;
log.info(
  {
    database: config.database.kind,
    mail: config.mail.kind,
    concurrency: config.jobConcurrency,
    metrics: metricsServer ? `http://${metricsHost}:${metricsPort}/metrics` : 'off',
  },
  'GiftLens worker started',
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'worker: stopping after the jobs in hand');
  const force = setTimeout(() => process.exit(1), 30_000).unref();
  try {
    metricsServer?.close();
    await jobs.stop();
    await infra.close();
  } finally {
    clearTimeout(force);
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
