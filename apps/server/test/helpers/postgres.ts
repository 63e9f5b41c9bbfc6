import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server tests and benchmarks use: TEST_DATABASE_URL, or the local one on 127.0.0.1:5432. */
export const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Why PostgreSQL at PG_URL cannot be used (its error's message), or null when it answers `select 1` within 2 s. */
export async function postgresProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One statement on the server's own database at PG_URL (creating and dropping databases), on a connection of its own. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty, uniquely named database (`<prefix>_<random>`) on the server at PG_URL: its URL, and `drop()`, which
 * removes it even while connections to it are still open.
 */
export async function createScratchPostgres(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return { url: postgresUrlOf(name), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** The URL of database `name` on the server at PG_URL. */
export function postgresUrlOf(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
