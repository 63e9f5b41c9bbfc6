import { CODE_LIMITS, LIVE_SCAN } from '@giftlens/contract/constants';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIPv4 } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root: relative paths in the environment are resolved from here, whatever the cwd. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** S3_* variables: any S3-compatible service (AWS, MinIO, Ceph, R2, …). */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO, most self-hosted services). */
  forcePathStyle: boolean;
}

/** The bounds of one ffmpeg run (decision 038). */
export interface RenderLimits {
  /** CPU seconds (RLIMIT_CPU): SIGXCPU at this, SIGKILL 5 s later. */
  cpuSeconds: number;
  /** Private writable memory (RLIMIT_DATA): allocations beyond it fail and ffmpeg stops. */
  memoryBytes: number;
  /** Wall clock; a run that takes longer is stopped and counts as interrupted. */
  timeoutMs: number;
}

/**
 * The largest render accepted (10 minutes of 4K HEVC at 60 frames a second, converted to 1080p H.264) measured
 * 1,104 CPU seconds and 463 MB resident here (decision 038): the defaults leave it about 3× room.
 */
export const DEFAULT_RENDER_LIMITS: RenderLimits = { cpuSeconds: 3600, memoryBytes: 2048 * 1024 * 1024, timeoutMs: 60 * 60_000 };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const EnvSchema = z
  .object({
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    /** Unset: loopback only while the test checkout is on for a loopback origin (loadConfig), else every interface. */
    HOST: z.preprocess(emptyToUndefined, z.string().optional()),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    PUBLIC_ORIGIN: z.preprocess(
      emptyToUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://giftlens.example' })
        .optional(),
    ),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL (leave empty for SQLite)' })
        .optional(),
    ),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\/[^/]+/, { error: 'must look like smtp://host:port' })
        .optional(),
    ),
    MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('GiftLens <no-reply@giftlens.local>')),
    SESSION_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ),
    PAYMENTS: z.preprocess(emptyToUndefined, z.enum(['test'], { error: 'must be "test" or empty' }).optional()),
    RAZORPAY_KEY_ID: optionalString,
    RAZORPAY_KEY_SECRET: optionalString,
    RAZORPAY_WEBHOOK_SECRET: optionalString,
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Stripe's API address: only a loopback stand-in (tests) ever sets it. */
    STRIPE_API_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.stripe.com'),
    ),
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .optional()
        .transform((v): TrustProxy => {
          if (v === undefined || v === 'false' || v === '0') return false;
          if (v === 'true') return true;
          // A number: that many proxies in front, each appending to X-Forwarded-For; the client is the entry n - 1
          // places left of the socket's peer (with one proxy: the last entry, what it saw), whatever the client
          // wrote further left. The peer itself must connect from loopback or a private network (lib/trust-proxy.ts).
          if (/^\d+$/.test(v)) return Number(v);
          // Anything else: a comma-separated list of trusted proxy addresses / CIDRs.
          return v;
        }),
    ),
    WEB_DIST_DIR: z.preprocess(emptyToUndefined, z.string().default('apps/web/dist')),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, { error: 'must be a redis:// URL' })
        .optional(),
    ),
    S3_ENDPOINT: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://s3.eu-west-1.amazonaws.com' }).optional(),
    ),
    S3_BUCKET: optionalString,
    S3_REGION: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: z.preprocess(
      emptyToUndefined,
      z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).default('false'),
    ),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info')),
    RUN_JOBS: z.preprocess(
      emptyToUndefined,
      z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).default('true'),
    ),
    JOB_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(4)),
    RENDER_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(16).default(1)),
    GROUP_RENDER_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(16).default(1)),
    HOUSEKEEPING_BUDGET_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(60_000).default(400)),
    RENDER_CPU_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(86_400).default(DEFAULT_RENDER_LIMITS.cpuSeconds)),
    RENDER_MEMORY_MB: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(256).max(65_536).default(DEFAULT_RENDER_LIMITS.memoryBytes / 1024 / 1024),
    ),
    CODES_PER_CLIENT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(CODE_LIMITS.perClient)),
    LIVE_SCAN_PER_CLIENT: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(1_000_000).default(LIVE_SCAN.perClient),
    ),
    /** Empty: no /metrics (404). Set: Prometheus scrapes with `Authorization: Bearer <it>`. */
    METRICS_TOKEN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .min(32, { error: 'must be at least 32 characters' })
        .regex(/^[A-Za-z0-9._~+/=-]+$/, { error: 'must be letters, digits and . _ ~ + / = - only (a bearer token)' })
        .optional(),
    ),
    /** `npm run worker` only: the port its /metrics listens on (the API serves /metrics on PORT). */
    METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
    VAPID_PUBLIC_KEY: optionalString,
    VAPID_PRIVATE_KEY: optionalString,
    VAPID_SUBJECT: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^(mailto:|https:\/\/)/, { error: 'must be a mailto: or https:// contact' }).optional(),
    ),
    PUSH_SERVICE_HOSTS: optionalString,
    /** Hosts a merchant's webhook may reach over plain http and at any address (tests), comma-separated. */
    WEBHOOK_ALLOW_HTTP_HOSTS: optionalString,
    /** Browser tests only: a clock they move forward (adapters/clock.ts TestClock); refused beyond a loopback test server. */
    TEST_CLOCK: z.preprocess(
      emptyToUndefined,
      z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).default('false'),
    ),
    /** The staff console's addresses, comma-separated; empty: no console (every staff call is a 404). */
    STAFF_EMAILS: optionalString,
    WHATSAPP_TOKEN: optionalString,
    WHATSAPP_PHONE_NUMBER_ID: optionalString,
    WHATSAPP_TEMPLATE: optionalString,
    WHATSAPP_TEMPLATE_LANGUAGE: z.preprocess(emptyToUndefined, z.string().default('en')),
    WHATSAPP_API_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://graph.facebook.com/v21.0'),
    ),
  });

const RAZORPAY_VARS = ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const;
const STRIPE_VARS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

const WHATSAPP_VARS = ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TEMPLATE'] as const;
const VAPID_VARS = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const;
const S3_VARS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/** Variables that only work as a set (keys of one account): naming the missing ones, whatever else is wrong. */
function setProblems(env: Record<string, string | undefined>, vars: readonly string[], family: string): string[] {
  const isSet = (k: string) => (env[k] ?? '').trim() !== '';
  if (!vars.some(isSet)) return [];
  return vars.filter((k) => !isSet(k)).map((k) => `${k}: is required when any ${family} variable is set`);
}

/** http://localhost, 127.0.0.0/8 or [::1]: a developer's own machine. */
function isLoopbackHttp(origin: string): boolean {
  const url = new URL(origin);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * localhost, an IPv4 address in 127.0.0.0/8, or ::1 (a URL's `[::1]` or a bare `::1`, as HOST is written). A name
 * that only starts with "127." (127.example.com) is a public DNS name, not loopback.
 */
export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || (isIPv4(host) && host.startsWith('127.')) || host === '::1' || host === '[::1]';

/**
 * The address to listen on. While the built-in test checkout is on only because the origin is loopback, the server
 * must not be reachable from the network (anyone there could mark orders paid): by default it listens on
 * `localhost` (127.0.0.1 and ::1, main.ts), and a HOST beyond loopback stops start-up. Otherwise every interface by
 * default, as a server behind a proxy or in a container needs.
 */
function listenHost(host: string | undefined, state: { loopbackTestCheckout: boolean; publicOrigin: string }): string {
  if (!state.loopbackTestCheckout) return host ?? '0.0.0.0';
  if (host === undefined) return 'localhost';
  if (isLoopbackHost(host)) return host;
  throw new ConfigError([
    `HOST: ${host} would let anyone on the network mark orders paid with the built-in test checkout, which is on because PUBLIC_ORIGIN (${state.publicOrigin}) is a loopback origin; leave HOST unset to listen on this machine only, or set PUBLIC_ORIGIN and the payment providers' keys (PAYMENTS=test only for a test deployment)`,
  ]);
}

/** The address part of MAIL_FROM ("GiftLens <no-reply@x>" -> "no-reply@x"). */
const mailAddress = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/**
 * Which X-Forwarded-For entries to believe (Fastify's trustProxy): false, none; a number n, the n proxies nearest
 * this server; a list of proxy addresses / CIDRs; true, every entry, so the client is the left-most one, which a
 * client can write itself: safe only behind a proxy that overwrites the header (start-up warns).
 */
export type TrustProxy = boolean | number | string;

export interface Config {
  port: number;
  /** An address, or `localhost`: both 127.0.0.1 and ::1, whatever the hosts file says (lib/listen.ts). */
  host: string;
  dataDir: string;
  publicOrigin: string;
  /** True when PUBLIC_ORIGIN is https: the session cookie is then Secure. */
  secureCookies: boolean;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  mail: { kind: 'smtp'; url: string; from: string } | { kind: 'outbox'; dir: string; from: string };
  /** Undefined when SESSION_SECRET is not set: main.ts then keeps a generated one in DATA_DIR. */
  sessionSecret: string | undefined;
  /** INR orders (Razorpay). */
  razorpay: { keyId: string; keySecret: string; webhookSecret: string } | null;
  /** USD orders (Stripe Checkout). */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string } | null;
  /**
   * The built-in test checkout (no money moves) takes a region whose provider is not configured: only with
   * PAYMENTS=test or on a loopback http origin, never by accident in production.
   */
  testPayments: boolean;
  trustProxy: TrustProxy;
  webDistDir: string;
  redisUrl: string | null;
  /** Media in an S3-compatible bucket (all S3_* set); null: files under DATA_DIR/media. */
  s3: S3Settings | null;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Run the job runner inside the server process (RUN_JOBS); off on API nodes when `npm run worker` runs apart. */
  runJobs: boolean;
  jobConcurrency: number;
  /** Render jobs (ffmpeg) one process runs at the same time, apart from the other jobs: 0 renders none here. */
  renderConcurrency: number;
  /**
   * Combined group renders (ffmpeg, minutes each) one process runs at the same time, in a lane of their own
   * (GROUP_RENDER_CONCURRENCY): a sender's single message never waits behind another's combined video (issue 37).
   */
  groupRenderConcurrency: number;
  /** How long one housekeeping run keeps deleting (HOUSEKEEPING_BUDGET_MS); what is left goes in a run a minute later. */
  housekeepingBudgetMs: number;
  /** CPU time, memory and wall clock of each ffmpeg run. */
  renderLimits: RenderLimits;
  /** Live frames one client address may send within LIVE_SCAN.windowMs (phones behind one NAT share it). */
  liveScanPerClient: number;
  /** Sign-in codes one client address may ask for within CODE_LIMITS.clientWindowMs, over every address (issue 37). */
  codesPerClient: number;
  /**
   * Prometheus metrics: `token` (METRICS_TOKEN; null: no /metrics anywhere); the worker's own listener on `port`
   * (METRICS_PORT; null: none) at `host` (HOST when set, else 127.0.0.1).
   */
  metrics: { token: string | null; port: number | null; host: string };
  /** Null keys: a pair generated once into DATA_DIR/vapid.json. */
  vapid: { publicKey: string | null; privateKey: string | null; subject: string };
  /** Hosts push subscription endpoints may point at; null: the browsers' own push services. */
  pushServiceHosts: string[] | null;
  /** WEBHOOK_ALLOW_HTTP_HOSTS, lowercased: hosts merchant webhooks may reach over http, at any address (tests). */
  webhookAllowHttpHosts: string[];
  whatsapp: { token: string; phoneNumberId: string; template: string; language: string; apiBaseUrl: string } | null;
  /** STAFF_EMAILS, lowercased: who may sign in to the staff console (empty: nobody, and no console). */
  staffEmails: string[];
  /**
   * TEST_CLOCK: the browser tests move this server's clock forward (`POST /api/test/clock`) instead of waiting. Only
   * while the test checkout is on for a loopback origin, so never where payments are taken or the server is reachable.
   */
  testClock: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** What the process does: an API node takes payments; a worker (`npm run worker`) never does. */
export interface ConfigRole {
  takesPayments: boolean;
}

/** Parses the environment once. Pure: throws ConfigError naming every bad variable. */
export function loadConfig(
  env: Record<string, string | undefined>,
  rootDir: string = REPO_ROOT,
  role: ConfigRole = { takesPayments: true },
): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.error?.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`) ?? []),
    ...setProblems(env, RAZORPAY_VARS, 'RAZORPAY_*'),
    ...setProblems(env, STRIPE_VARS, 'STRIPE_*'),
    ...setProblems(env, WHATSAPP_VARS, 'WHATSAPP_*'),
    ...setProblems(env, VAPID_VARS, 'VAPID_*_KEY'),
    ...setProblems(env, S3_VARS, 'S3_*'),
    ...((env.METRICS_PORT ?? '').trim() !== '' && (env.METRICS_TOKEN ?? '').trim() === ''
      ? ['METRICS_PORT: needs METRICS_TOKEN (the bearer token Prometheus scrapes with)']
      : []),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError([...new Set(problems)]);
  const e = parsed.data;
  const dataDir = path.resolve(rootDir, e.DATA_DIR);
  const publicOrigin = (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const hasRazorpay = Boolean(e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET && e.RAZORPAY_WEBHOOK_SECRET);
  const hasStripe = Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET);
  if (role.takesPayments && (!hasRazorpay || !hasStripe) && e.PAYMENTS !== 'test' && !isLoopbackHttp(publicOrigin)) {
    // Each region needs its provider: India pays in INR through Razorpay, everyone else in USD through Stripe.
    const missing = [
      ...(hasRazorpay ? [] : [`${RAZORPAY_VARS.join(', ')}: required to take payments in INR (Razorpay)`]),
      ...(hasStripe ? [] : [`${STRIPE_VARS.join(', ')}: required to take payments in USD (Stripe Checkout)`]),
    ];
    throw new ConfigError(
      missing.map(
        (m) =>
          `${m} at ${publicOrigin}; set PAYMENTS=test only for a test deployment (the built-in checkout marks orders paid without money)`,
      ),
    );
  }
  // On for a loopback origin alone (the quick start), not by PAYMENTS=test (a test deployment meant to be reached).
  const loopbackTestCheckout = role.takesPayments && (!hasRazorpay || !hasStripe) && e.PAYMENTS !== 'test';
  const host = listenHost(e.HOST, { loopbackTestCheckout, publicOrigin });
  const testClock = e.TEST_CLOCK === 'true' || e.TEST_CLOCK === '1';
  if (testClock && !loopbackTestCheckout) {
    throw new ConfigError([
      `TEST_CLOCK: a clock anyone could move is for the browser tests only: allowed only on a server whose test checkout is on because PUBLIC_ORIGIN is a loopback origin (no PAYMENTS=test, not every provider's keys, not a worker); leave it unset`,
    ]);
  }
  return {
    port: e.PORT,
    host,
    dataDir,
    publicOrigin,
    secureCookies: publicOrigin.startsWith('https:'),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'giftlens.sqlite') },
    mail: e.SMTP_URL
      ? { kind: 'smtp', url: e.SMTP_URL, from: e.MAIL_FROM }
      : { kind: 'outbox', dir: path.join(dataDir, 'outbox'), from: e.MAIL_FROM },
    sessionSecret: e.SESSION_SECRET,
    razorpay:
      e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET && e.RAZORPAY_WEBHOOK_SECRET
        ? { keyId: e.RAZORPAY_KEY_ID, keySecret: e.RAZORPAY_KEY_SECRET, webhookSecret: e.RAZORPAY_WEBHOOK_SECRET }
        : null,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : null,
    testPayments: !hasRazorpay || !hasStripe,
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(rootDir, e.WEB_DIST_DIR),
    redisUrl: e.REDIS_URL ?? null,
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
          }
        : null,
    logLevel: e.LOG_LEVEL,
    runJobs: e.RUN_JOBS === 'true' || e.RUN_JOBS === '1',
    jobConcurrency: e.JOB_CONCURRENCY,
    renderConcurrency: e.RENDER_CONCURRENCY,
    groupRenderConcurrency: e.GROUP_RENDER_CONCURRENCY,
    housekeepingBudgetMs: e.HOUSEKEEPING_BUDGET_MS,
    renderLimits: { cpuSeconds: e.RENDER_CPU_SECONDS, memoryBytes: e.RENDER_MEMORY_MB * 1024 * 1024, timeoutMs: Math.max(DEFAULT_RENDER_LIMITS.timeoutMs, 2 * e.RENDER_CPU_SECONDS * 1000) },
    liveScanPerClient: e.LIVE_SCAN_PER_CLIENT,
    codesPerClient: e.CODES_PER_CLIENT,
    metrics: { token: e.METRICS_TOKEN ?? null, port: e.METRICS_PORT ?? null, host: e.HOST ?? '127.0.0.1' },
    vapid: {
      publicKey: e.VAPID_PUBLIC_KEY ?? null,
      privateKey: e.VAPID_PRIVATE_KEY ?? null,
      subject: e.VAPID_SUBJECT ?? `mailto:${mailAddress(e.MAIL_FROM)}`,
    },
    pushServiceHosts: e.PUSH_SERVICE_HOSTS
      ? e.PUSH_SERVICE_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)
      : null,
    webhookAllowHttpHosts: (e.WEBHOOK_ALLOW_HTTP_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    whatsapp:
      e.WHATSAPP_TOKEN && e.WHATSAPP_PHONE_NUMBER_ID && e.WHATSAPP_TEMPLATE
        ? {
            token: e.WHATSAPP_TOKEN,
            phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
            template: e.WHATSAPP_TEMPLATE,
            language: e.WHATSAPP_TEMPLATE_LANGUAGE,
            apiBaseUrl: e.WHATSAPP_API_URL,
          }
        : null,
    staffEmails: (e.STAFF_EMAILS ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    testClock,
  };
}

/** The one place that reads process.env. */
export const loadConfigFromEnvironment = (role?: ConfigRole): Config => loadConfig(process.env, REPO_ROOT, role);

/**
 * DATA_DIR must exist (or be creatable) and be writable, and so must the folders and the SQLite file in it: the
 * database, media, outbox and generated keys live there. Throws a ConfigError with one clear line instead of a stack
 * trace from the first file written (or, for a read-only database file, from the first write after start-up).
 */
export function assertDataDirWritable(config: Config): void {
  const reason = (err: unknown) => (err instanceof Error && 'code' in err ? String((err as NodeJS.ErrnoException).code) : String(err));
  // The folders this process writes into: DATA_DIR, media and its staging folder (used with S3 too), the outbox.
  const mediaDir = path.join(config.dataDir, 'media');
  const folders = [config.dataDir, mediaDir, path.join(mediaDir, '.tmp')];
  if (config.mail.kind === 'outbox') folders.push(config.mail.dir);
  for (const folder of folders) {
    try {
      makeFolders(folder);
      accessSync(folder, constants.W_OK);
    } catch (err) {
      throw new ConfigError([`DATA_DIR: ${folder} is not a writable folder (${reason(err)})`]);
    }
  }
  // A SQLite file this process cannot write opens read-only, and the first write would fail after start-up.
  if (config.database.kind === 'sqlite') {
    for (const file of [config.database.file, `${config.database.file}-wal`, `${config.database.file}-shm`]) {
      try {
        if (existsSync(file)) accessSync(file, constants.W_OK);
      } catch (err) {
        throw new ConfigError([`DATA_DIR: the database file ${file} is not writable by this process (${reason(err)})`]);
      }
    }
  }
}

/**
 * A process's settings at start (the server, the worker, the operator's command): read from the environment and the
 * data folder checked; a bad setting is said in its one line, and the process exits 1.
 */
export function configOrExit(role?: ConfigRole): Config {
  try {
    const config = loadConfigFromEnvironment(role);
    assertDataDirWritable(config);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * `mkdir -p` one level at a time: node's recursive mkdir retries forever where a parent refuses a new folder with
 * ENOENT (a DATA_DIR under /proc hung start-up); one level at a time, that refusal is thrown.
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (err) {
      // Another process starting beside this one made it first.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (!statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
}

/** SESSION_SECRET, or one generated once and kept in DATA_DIR/session-secret so sessions survive restarts. */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
