import { type DialectAdapter, PostgresAdapter } from 'kysely';

/** Takes any Kysely instance or transaction, whatever its schema type. */
export function isPostgres(db: { getExecutor(): { readonly adapter: DialectAdapter } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
