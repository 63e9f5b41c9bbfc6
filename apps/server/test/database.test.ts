import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.ts';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const pgUp = (await reachable()) || process.env.REQUIRE_POSTGRES === '1';

describe.skipIf(!pgUp)('PostgreSQL pool', () => {
  it('survives an idle connection being terminated (a restart or failover): reported, not a crash, then reconnects', async () => {
    const dropped: Error[] = [];
    const db = await createDatabase({ kind: 'postgres', url: PG_URL }, (err) => dropped.push(err));
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const pid = rows[0]?.pid;
      expect(pid).toBeTypeOf('number');

      // The connection is idle in the pool now; an administrator ends it.
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();

      await expect.poll(() => dropped.length, { timeout: 5000 }).toBe(1);
      expect((dropped[0] as Error & { code?: string }).code).toBe('57P01');

      const again = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(again.rows[0]?.one).toBe(1);
    } finally {
      await db.destroy();
    }
  });
});
