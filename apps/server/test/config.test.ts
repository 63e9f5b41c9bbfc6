import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertDataDirWritable, ConfigError, loadConfig } from '../src/config.ts';

const ROOT = '/srv/giftlens';

describe('loadConfig', () => {
  it('has embedded defaults', () => {
    const c = loadConfig({}, ROOT);
    expect(c).toMatchObject({
      port: 3000,
      // The test checkout is on for the loopback origin: this machine only (127.0.0.1 and ::1).
      host: 'localhost',
      dataDir: '/srv/giftlens/data',
      publicOrigin: 'http://localhost:3000',
      secureCookies: false,
      database: { kind: 'sqlite', file: '/srv/giftlens/data/giftlens.sqlite' },
      mail: { kind: 'outbox', dir: '/srv/giftlens/data/outbox' },
      sessionSecret: undefined,
      razorpay: null,
      trustProxy: false,
      webDistDir: '/srv/giftlens/apps/web/dist',
      redisUrl: null,
      logLevel: 'info',
    });
  });

  it('switches adapters by configuration', () => {
    const c = loadConfig(
      {
        PORT: '8080',
        DATA_DIR: '/var/lib/giftlens',
        PUBLIC_ORIGIN: 'https://giftlens.example/',
        DATABASE_URL: 'postgres://u:p@db:5432/giftlens',
        SMTP_URL: 'smtp://mail:25',
        SESSION_SECRET: 'x'.repeat(40),
        RAZORPAY_KEY_ID: 'rzp_test_1',
        RAZORPAY_KEY_SECRET: 'secret',
        RAZORPAY_WEBHOOK_SECRET: 'whsec',
        STRIPE_SECRET_KEY: 'sk_live_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_stripe',
        TRUST_PROXY: 'true',
        REDIS_URL: 'redis://cache:6379',
        LOG_LEVEL: 'warn',
      },
      ROOT,
    );
    expect(c).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/giftlens',
      publicOrigin: 'https://giftlens.example',
      secureCookies: true,
      database: { kind: 'postgres', url: 'postgres://u:p@db:5432/giftlens' },
      mail: { kind: 'smtp', url: 'smtp://mail:25' },
      razorpay: { keyId: 'rzp_test_1', keySecret: 'secret', webhookSecret: 'whsec' },
      stripe: { secretKey: 'sk_live_1', webhookSecret: 'whsec_stripe', apiUrl: 'https://api.stripe.com' },
      testPayments: false,
      trustProxy: true,
      redisUrl: 'redis://cache:6379',
      logLevel: 'warn',
    });
    expect(loadConfig({ PORT: '4000' }, ROOT).publicOrigin).toBe('http://localhost:4000');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }, ROOT).trustProxy).toBe('10.0.0.0/8');
    // A number is how many proxies are in front (1: the one reverse proxy), not "trust every entry".
    expect(loadConfig({ TRUST_PROXY: '1' }, ROOT).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }, ROOT).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '0' }, ROOT).trustProxy).toBe(false);
    expect(loadConfig({ DATABASE_URL: '' }, ROOT).database.kind).toBe('sqlite');
  });

  it('jobs, push and WhatsApp: defaults, sets that belong together, and bad values', () => {
    expect(loadConfig({}, ROOT)).toMatchObject({
      runJobs: true,
      jobConcurrency: 4,
      liveScanPerClient: 300,
      vapid: { publicKey: null, privateKey: null, subject: 'mailto:no-reply@giftlens.local' },
      pushServiceHosts: null,
      whatsapp: null,
    });
    expect(
      loadConfig(
        {
          RUN_JOBS: 'false',
          JOB_CONCURRENCY: '8',
          LIVE_SCAN_PER_CLIENT: '5000',
          CODES_PER_CLIENT: '40',
          GROUP_RENDER_CONCURRENCY: '2',
          MAIL_FROM: 'Gifts <hello@giftlens.example>',
          PUSH_SERVICE_HOSTS: 'FCM.googleapis.com, push.example ',
          WHATSAPP_TOKEN: 't',
          WHATSAPP_PHONE_NUMBER_ID: '123',
          WHATSAPP_TEMPLATE: 'gift_link',
        },
        ROOT,
      ),
    ).toMatchObject({
      runJobs: false,
      jobConcurrency: 8,
      liveScanPerClient: 5000,
      codesPerClient: 40,
      groupRenderConcurrency: 2,
      vapid: { subject: 'mailto:hello@giftlens.example' },
      pushServiceHosts: ['fcm.googleapis.com', 'push.example'],
      whatsapp: { token: 't', phoneNumberId: '123', template: 'gift_link', language: 'en', apiBaseUrl: 'https://graph.facebook.com/v21.0' },
    });
    let error: unknown;
    try {
      loadConfig({ RUN_JOBS: 'maybe', WHATSAPP_TOKEN: 't', VAPID_PUBLIC_KEY: 'k', VAPID_SUBJECT: 'http://x', JOB_CONCURRENCY: '0', LIVE_SCAN_PER_CLIENT: 'many' }, ROOT);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        'RUN_JOBS: must be true or false',
        'WHATSAPP_PHONE_NUMBER_ID: is required when any WHATSAPP_* variable is set',
        'WHATSAPP_TEMPLATE: is required when any WHATSAPP_* variable is set',
        'VAPID_PRIVATE_KEY: is required when any VAPID_*_KEY variable is set',
        'VAPID_SUBJECT: must be a mailto: or https:// contact',
        expect.stringMatching(/^JOB_CONCURRENCY: /),
        expect.stringMatching(/^LIVE_SCAN_PER_CLIENT: /),
      ]),
    );
  });

  it('media on S3 when all five S3_* are set, path-style on request; a partial set is named', () => {
    expect(loadConfig({}, ROOT).s3).toBeNull();
    const s3 = {
      S3_ENDPOINT: 'https://minio.internal:9000',
      S3_BUCKET: 'giftlens-media',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'true' }, ROOT).s3).toEqual({
      endpoint: 'https://minio.internal:9000',
      bucket: 'giftlens-media',
      region: 'us-east-1',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(loadConfig(s3, ROOT).s3?.forcePathStyle).toBe(false);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' }, ROOT)).toThrow(ConfigError);
    try {
      loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' }, ROOT);
    } catch (err) {
      expect((err as ConfigError).problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^S3_ENDPOINT: must be an http\(s\) URL/),
          'S3_REGION: is required when any S3_* variable is set',
          'S3_ACCESS_KEY_ID: is required when any S3_* variable is set',
          'S3_SECRET_ACCESS_KEY: is required when any S3_* variable is set',
        ]),
      );
    }
  });

  it('takes no payments for free: the test checkout only on a loopback origin or with PAYMENTS=test', () => {
    expect(loadConfig({}, ROOT).testPayments).toBe(true);
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://127.0.0.1:4000' }, ROOT).testPayments).toBe(true);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://giftlens.example', PAYMENTS: 'test' }, ROOT).testPayments).toBe(true);
    const razorpay = { RAZORPAY_KEY_ID: 'k', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' };
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://giftlens.example', ...razorpay, ...stripe }, ROOT).testPayments).toBe(false);
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env, ROOT);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
    };
    /** Which region's keys a problem asks for (the whole line otherwise). */
    const region = (line: string) =>
      line.startsWith('RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: required to take payments in INR')
        ? 'INR'
        : line.startsWith('STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: required to take payments in USD')
          ? 'USD'
          : line;
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://[::1]:4000' }, ROOT).testPayments).toBe(true);
    // Public names that only look like loopback.
    for (const origin of ['http://127.gifts.example.com', 'http://127.0.0.1.nip.example', 'http://localhost.example.com']) {
      expect(problems({ PUBLIC_ORIGIN: origin }).map(region), origin).toEqual(['INR', 'USD']);
    }
    for (const origin of ['https://giftlens.example', 'http://192.168.1.20:3000', 'https://localhost:3000']) {
      expect(problems({ PUBLIC_ORIGIN: origin }).map(region), origin).toEqual(['INR', 'USD']);
    }
    // Each region needs its own provider: one configured is not enough outside a test deployment.
    expect(problems({ PUBLIC_ORIGIN: 'https://giftlens.example', ...razorpay }).map(region)).toEqual(['USD']);
    expect(problems({ PUBLIC_ORIGIN: 'https://giftlens.example', ...stripe }).map(region)).toEqual(['INR']);
    // In a test deployment the missing region falls back to the test checkout.
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://giftlens.example', PAYMENTS: 'test', ...stripe }, ROOT)).toMatchObject({
      testPayments: true,
      razorpay: null,
      stripe: { secretKey: 'sk_live_x', webhookSecret: 'whsec_x' },
    });
    // Half a Stripe account is named, whatever the origin.
    expect(problems({ STRIPE_SECRET_KEY: 'sk_x' })).toEqual(['STRIPE_WEBHOOK_SECRET: is required when any STRIPE_* variable is set']);
    // A worker takes no payments: it starts without the providers' keys (half a set is still named).
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://giftlens.example' }, ROOT, { takesPayments: false }).publicOrigin).toBe('https://giftlens.example');
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_x' }, ROOT, { takesPayments: false })).toThrow(ConfigError);
  });

  it('the test checkout on for a loopback origin listens on loopback only; a HOST beyond it stops start-up', () => {
    const razorpay = { RAZORPAY_KEY_ID: 'k', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' };
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    const host = (env: Record<string, string | undefined>) => loadConfig(env, ROOT).host;
    // The quick start (PUBLIC_ORIGIN unset, or any loopback origin), and one region without keys on it.
    for (const env of [{}, { HOST: '' }, { PUBLIC_ORIGIN: 'http://127.0.0.1:4000' }, { PUBLIC_ORIGIN: 'http://[::1]:4000' }, { ...razorpay }, { ...stripe }]) {
      expect(host(env), JSON.stringify(env)).toBe('localhost');
    }
    // A loopback HOST chosen there is kept.
    for (const loopback of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(host({ HOST: loopback })).toBe(loopback);
    // Anything else stops start-up with one line that names HOST and says why and what to do.
    for (const open of ['0.0.0.0', '::', '192.0.2.2', 'giftlens.example', '127.example.com']) {
      let error: unknown;
      try {
        loadConfig({ HOST: open, PORT: '4000' }, ROOT);
      } catch (err) {
        error = err;
      }
      expect(error, open).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toBe(
        `HOST: ${open} would let anyone on the network mark orders paid with the built-in test checkout, which is on because PUBLIC_ORIGIN (http://localhost:4000) is a loopback origin; leave HOST unset to listen on this machine only, or set PUBLIC_ORIGIN and the payment providers' keys (PAYMENTS=test only for a test deployment)`,
      );
      expect(problems[0]).not.toContain('\n');
    }
    // PAYMENTS=test (a test deployment, meant to be reached), both providers' keys, or a worker (it listens nowhere
    // and takes no payments): every interface by default, and any HOST.
    for (const env of [{ PAYMENTS: 'test' }, { PUBLIC_ORIGIN: 'https://giftlens.example', PAYMENTS: 'test' }, { ...razorpay, ...stripe }, { PUBLIC_ORIGIN: 'https://giftlens.example', ...razorpay, ...stripe }]) {
      expect(host(env), JSON.stringify(env)).toBe('0.0.0.0');
      expect(host({ ...env, HOST: '::' }), JSON.stringify(env)).toBe('::');
    }
    expect(loadConfig({}, ROOT, { takesPayments: false }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }, ROOT, { takesPayments: false }).host).toBe('0.0.0.0');
  });

  it('TEST_CLOCK only on a loopback test server: refused wherever payments are taken or the server is reachable', () => {
    const razorpay = { RAZORPAY_KEY_ID: 'k', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' };
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig({}, ROOT).testClock).toBe(false);
    // The browser tests' server: a loopback origin with the test checkout on (one region's keys may be set).
    for (const env of [{}, { PUBLIC_ORIGIN: 'http://127.0.0.1:4000', HOST: '127.0.0.1' }, { ...stripe }]) {
      expect(loadConfig({ ...env, TEST_CLOCK: '1' }, ROOT).testClock, JSON.stringify(env)).toBe(true);
    }
    const refusal =
      'TEST_CLOCK: a clock anyone could move is for the browser tests only: allowed only on a server whose test checkout is on because PUBLIC_ORIGIN is a loopback origin (no PAYMENTS=test, not every provider\'s keys, not a worker); leave it unset';
    const refused = (env: Record<string, string>, role?: { takesPayments: boolean }) => {
      try {
        loadConfig({ ...env, TEST_CLOCK: 'true' }, ROOT, role);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      return [];
    };
    // Production (every provider's keys), a reachable test deployment, and a worker.
    expect(refused({ PUBLIC_ORIGIN: 'https://giftlens.example', ...razorpay, ...stripe })).toEqual([refusal]);
    expect(refused({ ...razorpay, ...stripe })).toEqual([refusal]);
    expect(refused({ PUBLIC_ORIGIN: 'https://giftlens.example', PAYMENTS: 'test' })).toEqual([refusal]);
    expect(refused({ PAYMENTS: 'test' })).toEqual([refusal]);
    expect(refused({}, { takesPayments: false })).toEqual([refusal]);
    expect(() => loadConfig({ TEST_CLOCK: 'yes' }, ROOT)).toThrow('TEST_CLOCK: must be true or false');
  });

  it('a DATA_DIR that cannot be written stops start-up with one clear line', () => {
    const config = loadConfig({ DATA_DIR: '/etc/hostname/data' }, ROOT);
    expect(() => assertDataDirWritable(config)).toThrow(ConfigError);
    expect(() => assertDataDirWritable(config)).toThrow('DATA_DIR: /etc/hostname/data is not a writable folder (ENOTDIR)');
    // A parent that refuses new folders with ENOENT as root (node's own recursive mkdir retried it forever), or
    // with EACCES as anyone else.
    expect(() => assertDataDirWritable(loadConfig({ DATA_DIR: '/proc/giftlens/data' }, ROOT))).toThrow(
      /DATA_DIR: \/proc\/giftlens\/data is not a writable folder \((ENOENT|EACCES)\)/,
    );
    // Missing folders are made, every level.
    const nested = path.join(mkdtempSync(path.join(tmpdir(), 'giftlens-data-')), 'a', 'b');
    assertDataDirWritable(loadConfig({ DATA_DIR: nested }, ROOT));
    expect(statSync(nested).isDirectory()).toBe(true);
    for (const folder of ['media', 'media/.tmp', 'outbox']) expect(statSync(path.join(nested, folder)).isDirectory(), folder).toBe(true);
    // The folders inside it count too: media and the outbox (here files in their place).
    for (const blocked of ['media', 'outbox']) {
      const dir = mkdtempSync(path.join(tmpdir(), 'giftlens-data-'));
      writeFileSync(path.join(dir, blocked), '');
      expect(() => assertDataDirWritable(loadConfig({ DATA_DIR: dir }, ROOT)), blocked).toThrow(
        `DATA_DIR: ${path.join(dir, blocked)} is not a writable folder (ENOTDIR)`,
      );
    }
    // With SMTP there is no outbox to write.
    const smtpDir = mkdtempSync(path.join(tmpdir(), 'giftlens-data-'));
    writeFileSync(path.join(smtpDir, 'outbox'), '');
    assertDataDirWritable(loadConfig({ DATA_DIR: smtpDir, SMTP_URL: 'smtp://127.0.0.1:2525' }, ROOT));
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig(
        {
          PORT: 'eighty',
          PUBLIC_ORIGIN: 'ftp://nope',
          DATABASE_URL: 'mysql://x',
          SMTP_URL: 'mail.example.com',
          SESSION_SECRET: 'short',
          RAZORPAY_KEY_ID: 'rzp_test_1',
          REDIS_URL: 'http://cache',
          LOG_LEVEL: 'loud',
        },
        ROOT,
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const named = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(named.sort()).toEqual(
      [
        'DATABASE_URL',
        'LOG_LEVEL',
        'PORT',
        'PUBLIC_ORIGIN',
        'RAZORPAY_KEY_SECRET',
        'RAZORPAY_WEBHOOK_SECRET',
        'REDIS_URL',
        'SESSION_SECRET',
        'SMTP_URL',
      ].sort(),
    );
  });
});
