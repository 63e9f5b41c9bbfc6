import { sql } from 'kysely';
import type { Database, Executor } from './database.ts';

/**
 * Deletes at most `limit` rows of `table` whose `column` is before `before`, through a keyed subquery that both
 * databases accept (DELETE … LIMIT is SQLite-only): housekeeping's single-table sweeps, each called by the table's
 * owner. Running one twice, or in two workers at once, is harmless. Returns how many rows went.
 */
export async function deleteBatchBefore<T extends keyof Database>(
  db: Executor,
  table: T,
  key: keyof Database[T] & string,
  column: keyof Database[T] & string,
  before: string,
  limit: number,
): Promise<number> {
  const t = sql.table(table);
  const res = await sql`DELETE FROM ${t} WHERE ${sql.ref(key)} IN (SELECT ${sql.ref(key)} FROM ${t} WHERE ${sql.ref(column)} < ${before} LIMIT ${limit})`.execute(db);
  return Number(res.numAffectedRows ?? 0n);
}
