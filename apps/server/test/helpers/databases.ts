import { createDatabase, type Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createScratchPostgres, PG_URL, postgresProblem } from './postgres.ts';

const REQUIRE_POSTGRES = process.env.REQUIRE_POSTGRES === '1';
/** `npm run test:fast` (TEST_DATABASES=sqlite): the inner loop runs the server tests on SQLite alone. */
const SQLITE_ONLY = process.env.TEST_DATABASES === 'sqlite';
if (SQLITE_ONLY && REQUIRE_POSTGRES) throw new Error('TEST_DATABASES=sqlite and REQUIRE_POSTGRES=1 contradict each other');

const pgProblem = SQLITE_ONLY ? 'TEST_DATABASES=sqlite (npm run test:fast)' : await postgresProblem();
if (pgProblem && !REQUIRE_POSTGRES && !SQLITE_ONLY) {
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
      const scratch = await createScratchPostgres('giftlens_test');
      const db = await createDatabase({ kind: 'postgres', url: scratch.url });
      await migrateToLatest(db);
      return {
        db,
        url: scratch.url,
        async drop() {
          await db.destroy();
          await scratch.drop();
        },
      };
    },
  },
];
