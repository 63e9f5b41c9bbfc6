import { UNREACHABLE_CODES } from './unreachable.ts';
import type { Config } from '../config.ts';

/** PostgreSQL's refusals of a connection (SQLSTATE); a network failure is lib/unreachable.ts's. */
const PG_REFUSED = new Set(['28P01', '28000', '3D000', '57P03']);

/**
 * One clear line for a start-up failure an operator causes and can fix (the database is not there, the port is
 * taken), instead of a stack trace; null for anything else, which keeps its stack (a bug to report).
 */
export function startupProblem(err: unknown, config: Pick<Config, 'database' | 'port' | 'host'>, stage: 'database' | 'listen'): string | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (stage === 'listen') {
    if (code === 'EADDRINUSE') return `PORT: ${config.port} on ${config.host} is already in use by another process`;
    if (code === 'EACCES') return `PORT: ${config.port} on ${config.host} needs privileges this process does not have`;
    if (code === 'EADDRNOTAVAIL') return `HOST: ${config.host} is not an address of this machine`;
    return null;
  }
  if (config.database.kind === 'postgres' && (UNREACHABLE_CODES.has(code) || PG_REFUSED.has(code))) {
    return `DATABASE_URL: PostgreSQL at ${hostOf(config.database.url)} refused or could not be reached (${message})`;
  }
  return null;
}

/** The database's host and port, never its password. */
function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Prints the problem's one line and stops, or throws the error on (its stack is the report). */
export function failStartup(err: unknown, problem: string | null): never {
  if (problem === null) throw err;
  console.error(`GiftLens could not start: ${problem}`);
  process.exit(1);
}
