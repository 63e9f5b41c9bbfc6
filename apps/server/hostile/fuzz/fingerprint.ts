import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * What a refused request may still write, by design: a wrong code counts an attempt (sender-side §5: five, then
 * a new code), and a failed scan is counted per gift (decision 005). Everything else must stay as it was.
 */
const COUNTED = { table: 'scan_failures', column: 'attempts', columnTable: 'verification_codes' } as const;

/** A digest of every application table's rows, one string per table, to tell whether a request wrote anything. */
export async function databaseFingerprint(db: Db, kind: 'sqlite' | 'postgres'): Promise<Record<string, string>> {
  if (kind === 'postgres') {
    const tables = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'`.execute(db);
    const names = tables.rows.map((t) => t.name).filter((n) => n !== COUNTED.table);
    // One round trip: an md5 per table over its rows as JSON (sorted), the counted column left out.
    const parts = names.map((n) => {
      const row = n === COUNTED.columnTable ? sql`(to_jsonb(t) - ${COUNTED.column})::text` : sql`to_jsonb(t)::text`;
      return sql`(select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) from ${sql.table(n)} t) as ${sql.ref(n)}`;
    });
    const res = await sql<Record<string, string>>`select ${sql.join(parts)}`.execute(db);
    return res.rows[0] ?? {};
  }
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(db);
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (name === COUNTED.table) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const hash = createHash('sha1');
    for (const row of rows.rows) {
      if (name === COUNTED.columnTable) delete row[COUNTED.column];
      hash.update(JSON.stringify(row));
    }
    out[name] = hash.digest('hex');
  }
  return out;
}

/** The tables whose digest differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]);
}
