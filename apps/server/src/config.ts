import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root: relative paths in the environment are resolved from here, whatever the cwd. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const EnvSchema = z
  .object({
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
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
    RAZORPAY_KEY_ID: optionalString,
    RAZORPAY_KEY_SECRET: optionalString,
    RAZORPAY_WEBHOOK_SECRET: optionalString,
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .optional()
        .transform((v): boolean | string => {
          if (v === undefined || v === 'false' || v === '0') return false;
          if (v === 'true' || v === '1') return true;
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
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info')),
  });

const RAZORPAY_VARS = ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const;

/** Razorpay keys come as a set: naming the missing ones even when other variables are also wrong. */
function razorpayProblems(env: Record<string, string | undefined>): string[] {
  const isSet = (k: string) => (env[k] ?? '').trim() !== '';
  if (!RAZORPAY_VARS.some(isSet)) return [];
  return RAZORPAY_VARS.filter((k) => !isSet(k)).map((k) => `${k}: is required when any RAZORPAY_* variable is set`);
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicOrigin: string;
  /** True when PUBLIC_ORIGIN is https: the session cookie is then Secure. */
  secureCookies: boolean;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  mail: { kind: 'smtp'; url: string; from: string } | { kind: 'outbox'; dir: string; from: string };
  /** Undefined when SESSION_SECRET is not set: main.ts then keeps a generated one in DATA_DIR. */
  sessionSecret: string | undefined;
  razorpay: { keyId: string; keySecret: string; webhookSecret: string } | null;
  trustProxy: boolean | string;
  webDistDir: string;
  redisUrl: string | null;
  logLevel: (typeof LOG_LEVELS)[number];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once. Pure: throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>, rootDir: string = REPO_ROOT): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.error?.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`) ?? []),
    ...razorpayProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError([...new Set(problems)]);
  const e = parsed.data;
  const dataDir = path.resolve(rootDir, e.DATA_DIR);
  const publicOrigin = (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
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
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(rootDir, e.WEB_DIST_DIR),
    redisUrl: e.REDIS_URL ?? null,
    logLevel: e.LOG_LEVEL,
  };
}

/** The one place that reads process.env. */
export const loadConfigFromEnvironment = (): Config => loadConfig(process.env);

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
