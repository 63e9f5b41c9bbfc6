import { type SelectQueryBuilder, sql } from 'kysely';
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

/** How far a count of what is left goes (a report, not an inventory: it stays an index range of bounded length). */
export const LEFT_CAP = 100_000;

/** The rows `q` selects, counted up to LEFT_CAP: what housekeeping reports as left when its budget runs out. */
export async function countUpTo<T extends keyof Database, O>(db: Executor, q: SelectQueryBuilder<Database, T, O>): Promise<number> {
  const row = await db
    .selectFrom(q.limit(LEFT_CAP).as('due'))
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The rows of `table` whose `column` is before `before`, counted up to LEFT_CAP (what deleteBatchBefore has left). */
export function countBefore<T extends keyof Database>(
  db: Executor,
  table: T,
  key: keyof Database[T] & string,
  column: keyof Database[T] & string,
  before: string,
): Promise<number> {
  const t = sql.table(table);
  return sql<{ n: number | string | bigint }>`SELECT count(*) AS n FROM (SELECT ${sql.ref(key)} FROM ${t} WHERE ${sql.ref(column)} < ${before} LIMIT ${LEFT_CAP}) due`
    .execute(db)
    .then((r) => Number(r.rows[0]?.n ?? 0));
}
