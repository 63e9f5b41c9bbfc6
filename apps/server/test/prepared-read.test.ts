import { sql, type Kysely } from 'kysely';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresPoolOf, type Db } from '../src/db/database.ts';
import { preparedFirstRow } from '../src/db/prepared-read.ts';
import { DATABASE_TARGETS, type TestDatabase } from './helpers/databases.ts';

interface Row {
  id: number;
  name: string;
}
// A table of the test's own, outside the app's schema.
const table = (db: Kysely<never>) => (db as unknown as Kysely<{ t: Row }>).selectFrom('t');
const findNamed = preparedFirstRow((db, id: number, notName: string) =>
  table(db as never)
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('name', '<>', notName)
    .where('name', '<>', 'hidden'),
);
const insert = (db: Db, id: number, name: string) =>
  sql`insert into t (id, name) values (${id}, ${name})`.execute(db);

describe.each(DATABASE_TARGETS)('preparedFirstRow on $name', (target) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    if (target.unavailable) return;
    database = await target.create(mkdtempSync(path.join(tmpdir(), 'giftlens-prepared-')));
    db = database.db;
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
  });
  afterAll(async () => {
    if (!target.unavailable) await database.drop();
  });

  it.skipIf(target.unavailable)('reads the database on every call, with that call’s arguments and the query’s constants', async () => {
    expect(await findNamed(db, 1, 'x')).toBeUndefined();
    await insert(db, 1, 'a');
    await insert(db, 2, 'b');
    await insert(db, 3, 'hidden');
    expect(await findNamed(db, 1, 'x')).toEqual({ id: 1, name: 'a' });
    expect(await findNamed(db, 2, 'x')).toEqual({ id: 2, name: 'b' });
    expect(await findNamed(db, 2, 'b')).toBeUndefined();
    expect(await findNamed(db, 3, 'x')).toBeUndefined();
    await sql`update t set name = 'c' where id = 1`.execute(db);
    expect(await findNamed(db, 1, 'x')).toEqual({ id: 1, name: 'c' });
  });

  it.skipIf(target.unavailable)('inside a transaction sees its writes; outside never sees a write that is not committed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into t (id, name) values (${10}, ${'uncommitted'})`.execute(trx);
        expect(await findNamed(trx, 10, 'x')).toEqual({ id: 10, name: 'uncommitted' });
        written();
        await gate;
        throw new Error('roll back');
      })
      .catch((err: Error) => err.message);
    await wrote;
    const outside = findNamed(db, 10, 'x');
    release();
    expect(await outside).toBeUndefined();
    expect(await transaction).toBe('roll back');
    expect(await findNamed(db, 10, 'x')).toBeUndefined();
  });

  it.skipIf(target.name !== 'postgres' || target.unavailable)(
    'on PostgreSQL runs as a named statement, prepared once on each pooled connection that runs it',
    async () => {
      await insert(db, 20, 'pooled');
      // More calls at once than the pool has connections: several connections prepare the same name.
      const rows = await Promise.all(Array.from({ length: 30 }, () => findNamed(db, 20, 'x')));
      expect(rows.every((r) => r?.name === 'pooled')).toBe(true);
      const client = await postgresPoolOf(db)!.connect();
      try {
        const prepared = await client.query<{ statement: string }>(`select statement from pg_prepared_statements where name like 'gl_%'`);
        expect(prepared.rows.map((r) => r.statement)).toEqual([expect.stringContaining('from "t"')]);
      } finally {
        client.release();
      }
    },
  );
});
