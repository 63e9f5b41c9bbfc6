import path from 'node:path';
import { buildApp } from './app.ts';
import { systemClock } from './adapters/clock.ts';
import { createOutboxMailer, createSmtpMailer } from './adapters/mail.ts';
import { createLocalMediaStorage } from './adapters/media-storage.ts';
import { createRazorpayProvider, createTestPaymentProvider } from './adapters/payments.ts';
import { createRateLimitStore } from './adapters/rate-limit-store.ts';
import { createMatcherRecogniser } from './adapters/recogniser.ts';
import {
  ConfigError,
  loadConfigFromEnvironment,
  REPO_ROOT,
  resolveSessionSecret,
  type Config,
} from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { deriveKey } from './lib/crypto.ts';
import { startHousekeeping } from './modules/housekeeping/housekeeping.runner.ts';
import { createHousekeepingService } from './modules/housekeeping/housekeeping.service.ts';

function readConfig(): Config {
  try {
    return loadConfigFromEnvironment();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
const sessionSecret = resolveSessionSecret(config);
const db = createDatabase(config.database, (err) =>
  console.warn(`database: an idle connection dropped (${err.message})`),
);
const applied = await migrateToLatest(db);

const mailer =
  config.mail.kind === 'smtp'
    ? createSmtpMailer(config.mail.url, config.mail.from)
    : createOutboxMailer(config.mail.dir, config.mail.from, (line) => console.log(line));
const rateLimitStore = createRateLimitStore(config.redisUrl);
const recogniser = createMatcherRecogniser({ eager: true });
const media = createLocalMediaStorage(
  path.join(config.dataDir, 'media'),
  deriveKey(sessionSecret, 'media-urls'),
);

const app = await buildApp({
  db,
  media,
  mailer,
  clock: systemClock,
  payments: config.razorpay
    ? createRazorpayProvider(config.razorpay)
    : createTestPaymentProvider(sessionSecret),
  rateLimitStore,
  sessionSecret,
  secureCookies: config.secureCookies,
  trustProxy: config.trustProxy,
  webDistDir: config.webDistDir,
  logger: { level: config.logLevel },
  recogniser,
  // The built app in production; the source public folder too, so the demo works before a build.
  demoImageDirs: [config.webDistDir, path.join(REPO_ROOT, 'apps/web/public')],
});

app.log.info(
  {
    database: config.database.kind,
    migrationsApplied: applied,
    mail: config.mail.kind,
    payments: config.razorpay ? 'razorpay' : 'test',
    dataDir: config.dataDir,
  },
  'GiftLens server starting',
);

const housekeeping = createHousekeepingService({ db, media, clock: systemClock, log: app.log });
let housekeepingRunner: ReturnType<typeof startHousekeeping> | null = null;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  try {
    await housekeepingRunner?.stop();
    await app.close();
    await recogniser.close();
    await db.destroy();
    mailer.close();
    if (rateLimitStore.kind === 'redis') rateLimitStore.client.disconnect();
  } finally {
    clearTimeout(force);
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
app.log.info(`GiftLens is listening on ${config.publicOrigin}`);
// Once a minute after start, then hourly; see docs/decisions/008-housekeeping.md.
if (!closing)
  housekeepingRunner = startHousekeeping({ run: (signal) => housekeeping.run(signal), log: app.log });
