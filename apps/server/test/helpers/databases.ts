import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE_POSTGRES = process.env.REQUIRE_POSTGRES === '1';

async function probePostgres(): Promise<string | null> {
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

const pgProblem = await probePostgres();
if (pgProblem && !REQUIRE_POSTGRES) {
  console.log(`PostgreSQL not reachable at ${PG_URL} (${pgProblem}): skipping the PostgreSQL HTTP tests.`);
}

export interface TestDatabase {
  db: Db;
  /** DATABASE_URL for another process on the same database (null: SQLite at DATA_DIR/giftlens.sqlite). */
  url: string | null;
  drop: () => Promise<void>;
}

export interface DatabaseTarget {
  name: 'sqlite' | 'postgres';
  /** Why this target cannot run; the suite fails instead of skipping when REQUIRE_POSTGRES=1. */
  unavailable: string | null;
  create(dataDir: string): Promise<TestDatabase>;
}

function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export const DATABASE_TARGETS: DatabaseTarget[] = [
  {
    name: 'sqlite',
    unavailable: null,
    async create(dataDir) {
      const db = await createDatabase({ kind: 'sqlite', file: `${dataDir}/giftlens.sqlite` });
      await migrateToLatest(db);
      return { db, url: null, drop: () => db.destroy() };
    },
  },
  {
    name: 'postgres',
    unavailable: REQUIRE_POSTGRES ? null : pgProblem,
    async create() {
      if (pgProblem)
        throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${PG_URL}: ${pgProblem}`);
      // A fresh, uniquely named database per test file, dropped afterwards.
      const name = `giftlens_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = withDatabaseName(PG_URL, name);
      const db = await createDatabase({ kind: 'postgres', url });
      await migrateToLatest(db);
      return {
        db,
        url,
        async drop() {
          await db.destroy();
          const c = new pg.Client({ connectionString: PG_URL });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        },
      };
    },
  },
];
