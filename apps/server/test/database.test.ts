import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, keepingStatements } from '../src/db/database.ts';

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

describe('SQLite statements kept by SQL text', () => {
  const open = async () => {
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    const sqlite = new BetterSqlite3(':memory:');
    sqlite.exec('create table t (id integer primary key, name text)');
    return sqlite;
  };

  it('prepares a text once and reuses its statement, with each call’s own parameters', async () => {
    const sqlite = await open();
    const kept = keepingStatements(sqlite);
    const first = kept.prepare('select name from t where id = ?');
    expect(kept.prepare('select name from t where id = ?')).toBe(first);
    expect(kept.prepare('select id from t')).not.toBe(first);
    sqlite.exec("insert into t values (1, 'a'), (2, 'b')");
    expect(kept.prepare('select name from t where id = ?').all([2])).toEqual([{ name: 'b' }]);
    expect(kept.prepare('select name from t where id = ?').all([1])).toEqual([{ name: 'a' }]);
    kept.close();
  });

  it('a statement still being iterated is not handed out again: that query gets its own', async () => {
    const sqlite = await open();
    sqlite.exec("insert into t values (1, 'a'), (2, 'b')");
    const kept = keepingStatements(sqlite);
    const text = 'select name from t order by id';
    const statement = kept.prepare(text);
    const rows = statement.iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    expect(kept.prepare(text)).not.toBe(statement);
    expect(rows.next().value).toEqual({ name: 'b' });
    expect(rows.next().done).toBe(true);
    expect(kept.prepare(text)).toBe(statement);
    kept.close();
  });

  it('keeps at most `max` texts, the oldest going first', async () => {
    const kept = keepingStatements(await open(), 2);
    const a = kept.prepare('select 1');
    const b = kept.prepare('select 2');
    kept.prepare('select 3');
    expect(kept.prepare('select 2')).toBe(b);
    expect(kept.prepare('select 1')).not.toBe(a);
    kept.close();
  });

  it('through Kysely, queries see every write', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'giftlens-statements-'));
    const db = await createDatabase({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    await sql`create table t (id integer primary key, name text)`.execute(db);
    const names = async () => (await sql<{ name: string }>`select name from t order by id`.execute(db)).rows.map((r) => r.name);
    expect(await names()).toEqual([]);
    await sql`insert into t (id, name) values (${1}, ${'a'})`.execute(db);
    await sql`insert into t (id, name) values (${2}, ${'b'})`.execute(db);
    expect(await names()).toEqual(['a', 'b']);
    await db.destroy();
  });
});
