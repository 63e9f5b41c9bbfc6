import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { createHash } from 'node:crypto';
import { postgresPoolOf, sqliteConnectionOf, type Database, type Executor } from './database.ts';

/** Stands for the i-th argument while a query is compiled once; replaced by the call's own value on each run. */
class Argument {
  constructor(readonly index: number) {}
}

const statementNames = new Map<string, string>();
/** A PostgreSQL statement name for an SQL text: the same on every connection, different for every text. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `gl_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A read query built and compiled once per database, then run with each call's arguments (decision 027): for a
 * read on every request (verify-gift) Kysely's building and compiling cost more than SQLite's primary-key read.
 * `build` must use its arguments only as values (where clauses, limits), never to choose the query's shape.
 * On SQLite, when no transaction holds the connection, the kept statement runs at once (synchronous, as Kysely's
 * driver runs it, without its connection lock and promise hops: nothing else can run meanwhile); inside a
 * transaction, or while one is open on the connection, the query goes through Kysely and waits its turn as before.
 * On PostgreSQL, outside a transaction, it runs on the pool as a named statement (parsed and planned once per
 * connection).
 * The answer is read from the database on every call: nothing is cached but the SQL text.
 */
export function preparedFirstRow<Row, Args extends unknown[]>(build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>) {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<Row>>();
  const compile = (db: Kysely<Database>, count: number) => {
    let query = compiled.get(db);
    if (!query) {
      const markers = Array.from({ length: count }, (_, i) => new Argument(i)) as Args;
      query = build(db, ...markers).compile();
      compiled.set(db, query);
    }
    return query;
  };
  return async (db: Executor, ...args: Args): Promise<Row | undefined> => {
    if (db.isTransaction) return (await db.executeQuery(build(db, ...args).compile())).rows[0];
    const query = compile(db, args.length);
    const parameters = query.parameters.map((p) => (p instanceof Argument ? args[p.index] : p));
    const sqlite = sqliteConnectionOf(db);
    if (sqlite && !sqlite.connection.inTransaction) {
      return sqlite.prepare(query.sql).get(parameters) as Row | undefined;
    }
    const pool = postgresPoolOf(db);
    if (pool) {
      // A named statement: each pooled connection parses and plans it once, then only binds and runs it.
      const { rows } = await pool.query<Row & object>({ name: statementName(query.sql), text: query.sql, values: parameters });
      return rows[0];
    }
    const { rows } = await db.executeQuery<Row>({ ...query, parameters });
    return rows[0];
  };
}
