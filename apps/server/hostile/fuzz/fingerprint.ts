import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * What a refused request may still write, by design: a wrong code counts an attempt (the sender specification's rule: five, then
 * a new code), and a failed scan is counted per gift (decision 005). Everything else must stay as it was.
 */
const COUNTED = { table: 'scan_failures', column: 'attempts', columnTable: 'verification_codes' } as const;

type Digests = Record<string, string>;
const pgTables = new WeakMap<Db, string[]>();
let lastSqlite: { db: Db; changes: number; digests: Digests } | undefined;

/** A digest of every application table's rows, one per table, to tell whether a request wrote anything. */
export async function databaseFingerprint(db: Db, kind: 'sqlite' | 'postgres'): Promise<Digests> {
  if (kind === 'postgres') {
    let names = pgTables.get(db);
    if (!names) {
      const tables = await sql<{ name: string }>`
        select tablename as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'`.execute(
        db,
      );
      names = tables.rows.map((t) => t.name).filter((n) => n !== COUNTED.table);
      pgTables.set(db, names);
    }
    // One round trip. Every insert or update gives a row a new xmin (the writing transaction) and a delete lowers
    // the count, so count + sum of xmin moves with any write; the table with the counted column is compared by
    // its rows' content without it.
    const parts = names.map((n) => {
      if (n === COUNTED.columnTable) {
        const row = sql`(to_jsonb(t) - ${COUNTED.column})::text`;
        return sql`(select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) from ${sql.table(n)} t) as ${sql.ref(n)}`;
      }
      return sql`(select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from ${sql.table(n)}) as ${sql.ref(n)}`;
    });
    const res = await sql<Digests>`select ${sql.join(parts)}`.execute(db);
    return res.rows[0] ?? {};
  }
  // SQLite counts every row this connection has written: while that count stands still, nothing was written.
  const changes = (await sql<{ n: number }>`select total_changes() as n`.execute(db)).rows[0]?.n ?? 0;
  if (lastSqlite?.db === db && lastSqlite.changes === changes) return lastSqlite.digests;
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
    db,
  );
  const digests: Digests = {};
  for (const { name } of tables.rows) {
    if (name === COUNTED.table) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const hash = createHash('sha1');
    for (const row of rows.rows) {
      for (const [column, value] of Object.entries(row)) {
        if (name === COUNTED.columnTable && column === COUNTED.column) continue;
        hash.update(`${column}=`);
        hash.update(Buffer.isBuffer(value) ? value : String(value));
        hash.update('\u0000');
      }
    }
    digests[name] = hash.digest('hex');
  }
  lastSqlite = { db, changes, digests };
  return digests;
}

/** The tables whose digest differs. */
export function changedTables(before: Digests, after: Digests): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]);
}
