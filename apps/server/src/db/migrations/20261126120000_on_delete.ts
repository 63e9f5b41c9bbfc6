import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

// Every foreign key says what deleting its parent does (docs/decisions/041-one-owner-per-table.md). Two still said
// nothing (NO ACTION): a delivery's gift and sender, and a gift's sender.
//   scheduled_messages.gift_id   → gifts    ON DELETE CASCADE   (a delivery is part of its gift)
//   scheduled_messages.sender_id → senders  ON DELETE RESTRICT  (a sender goes only after their gifts)
//   gifts.sender_id              → senders  ON DELETE RESTRICT  (a gift's files and jobs must be queued first)
// Those already stated stay: gift_photos, upload_intents, reveal_grants, reactions → gifts CASCADE;
// push_subscriptions → senders CASCADE. Orders have no foreign key on purpose (decision 016).
// A cascade deletes the children of each deleted gift by their gift_id: the two child tables without an index on it
// get one (the others have one already: gift_photos and reactions by their unique constraints, scheduled_messages).

interface Change {
  table: string;
  column: string;
  parent: string;
  action: 'CASCADE' | 'RESTRICT';
}

const CHANGES: Change[] = [
  { table: 'scheduled_messages', column: 'gift_id', parent: 'gifts', action: 'CASCADE' },
  { table: 'scheduled_messages', column: 'sender_id', parent: 'senders', action: 'RESTRICT' },
  { table: 'gifts', column: 'sender_id', parent: 'senders', action: 'RESTRICT' },
];

const CHILD_INDEXES = [
  { name: 'upload_intents_gift_idx', table: 'upload_intents' },
  { name: 'reveal_grants_gift_idx', table: 'reveal_grants' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await change(db, (c) => c.action);
  for (const { name, table } of CHILD_INDEXES) await db.schema.createIndex(name).on(table).column('gift_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name } of CHILD_INDEXES) await db.schema.dropIndex(name).execute();
  await change(db, () => null);
}

async function change(db: Kysely<unknown>, actionOf: (c: Change) => Change['action'] | null): Promise<void> {
  if (isPostgres(db)) {
    for (const c of CHANGES) {
      // The name PostgreSQL gave the inline REFERENCES of the first migrations.
      const name = sql.id(`${c.table}_${c.column}_fkey`);
      const action = actionOf(c);
      await sql`ALTER TABLE ${sql.table(c.table)} DROP CONSTRAINT ${name}, ADD CONSTRAINT ${name} FOREIGN KEY (${sql.ref(c.column)})
        REFERENCES ${sql.table(c.parent)} (id) ${action ? sql.raw(`ON DELETE ${action}`) : sql``}`.execute(db);
    }
    return;
  }
  // SQLite cannot alter a foreign key: each table is rebuilt from its own CREATE statement with the clause changed
  // (the column order, defaults, constraints and indexes stay as they are). With foreign keys off for the rebuild, so
  // that dropping the old gifts table neither cascades into its children nor fails; checked before they are back on.
  // Kysely runs SQLite migrations outside a transaction (the pragma cannot change inside one): the rebuild is one.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      for (const table of [...new Set(CHANGES.map((c) => c.table))]) {
        await rebuildSqliteTable(trx, table, (create) =>
          CHANGES.filter((c) => c.table === table).reduce((text, c) => withOnDelete(text, c, actionOf(c)), create),
        );
      }
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/** The column definition's REFERENCES clause with `ON DELETE action` (or none); throws if it is not there. */
function withOnDelete(create: string, c: Change, action: Change['action'] | null): string {
  const clause = new RegExp(`("${c.column}"[^,]*?references "${c.parent}" \\("id"\\))( on delete (cascade|restrict|set null))?`, 'i');
  if (!clause.test(create)) throw new Error(`${c.table}.${c.column}: no foreign key to ${c.parent} in ${create}`);
  return create.replace(clause, (_, column: string) => (action ? `${column} on delete ${action.toLowerCase()}` : column));
}

async function rebuildSqliteTable(db: Kysely<unknown>, table: string, edit: (create: string) => string): Promise<void> {
  const own = await sql<{ type: string; sql: string | null }>`SELECT type, sql FROM sqlite_master WHERE tbl_name = ${table}`.execute(db);
  const create = own.rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`no table ${table}`);
  // Indexes made by CREATE INDEX (those of UNIQUE constraints have no SQL of their own: they come back with the table).
  const indexes = own.rows.filter((r) => r.type === 'index' && r.sql).map((r) => r.sql!);
  const temp = `${table}_rebuilt`;
  const changed = edit(create).replace(/^CREATE TABLE ("?)[a-z_]+\1/i, `CREATE TABLE "${temp}"`);
  await sql.raw(changed).execute(db);
  await sql`INSERT INTO ${sql.table(temp)} SELECT * FROM ${sql.table(table)}`.execute(db);
  await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  await sql`ALTER TABLE ${sql.table(temp)} RENAME TO ${sql.table(table)}`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}
