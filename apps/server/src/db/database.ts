import type BetterSqlite3 from 'better-sqlite3';
import type { Pool } from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type Transaction } from 'kysely';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { JobsTable } from '../jobs/jobs.table.ts';
import type { PushSubscriptionsTable } from '../modules/push/push.table.ts';
import type { ScheduledMessagesTable } from '../modules/deliveries/deliveries.table.ts';
import type { GiftPhotosTable, GiftsTable } from '../modules/gifts/gifts.table.ts';
import type { ContributionsTable, GroupGiftsTable, GroupInvitationsTable } from '../modules/group-gifts/group-gifts.table.ts';
import type { MerchantApiKeysTable, MerchantGiftsTable, MerchantsTable, MerchantWebhookAttemptsTable, MerchantWebhooksTable } from '../modules/merchants/merchants.table.ts';
import type { OrdersTable, WebhookEventsTable } from '../modules/payments/payments.table.ts';
import type { ReactionsTable } from '../modules/reactions/reactions.table.ts';
import type { RecipientsTable } from '../modules/recipient-auth/recipient-auth.table.ts';
import type { RevealGrantsTable } from '../modules/reveal-grants/reveal-grants.table.ts';
import type { ScanEventsTable, ScanFailuresTable } from '../modules/scans/scans.table.ts';
import type { StaffAuditTable, StaffMembersTable } from '../modules/staff/staff.table.ts';
import type { CodeResendsTable, SessionsTable, VerificationCodesTable } from '../modules/auth/auth.table.ts';
import type { SendersTable } from '../modules/sender-auth/sender-auth.table.ts';
import type { UploadIntentsTable } from '../modules/uploads/uploads.table.ts';

export interface Database {
  senders: SendersTable;
  verification_codes: VerificationCodesTable;
  code_resends: CodeResendsTable;
  sessions: SessionsTable;
  gifts: GiftsTable;
  gift_photos: GiftPhotosTable;
  upload_intents: UploadIntentsTable;
  orders: OrdersTable;
  webhook_events: WebhookEventsTable;
  scheduled_messages: ScheduledMessagesTable;
  recipients: RecipientsTable;
  reveal_grants: RevealGrantsTable;
  scan_failures: ScanFailuresTable;
  reactions: ReactionsTable;
  jobs: JobsTable;
  push_subscriptions: PushSubscriptionsTable;
  group_gifts: GroupGiftsTable;
  group_invitations: GroupInvitationsTable;
  contributions: ContributionsTable;
  scan_events: ScanEventsTable;
  staff_members: StaffMembersTable;
  staff_audit: StaffAuditTable;
  merchants: MerchantsTable;
  merchant_api_keys: MerchantApiKeysTable;
  merchant_gifts: MerchantGiftsTable;
  merchant_webhooks: MerchantWebhooksTable;
  merchant_webhook_attempts: MerchantWebhookAttemptsTable;
}

export type Db = Kysely<Database>;
/** Repositories take either; the caller decides where a transaction starts. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * `onIdleError` hears about a pooled PostgreSQL connection that dropped while idle (a server restart, a failover,
 * an administrator's command). node-postgres emits that on the pool, and an unheard pool error would crash the
 * process; the pool discards the connection and opens a new one on the next query.
 * Only the driver in use is loaded (pg or better-sqlite3, never both): measured in decision 022.
 */
export async function createDatabase(config: DatabaseConfig, onIdleError: (err: Error) => void = () => {}): Promise<Db> {
  if (config.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    pool.on('error', onIdleError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    postgresPools.set(db, pool);
    return db;
  }
  mkdirSync(path.dirname(config.file), { recursive: true });
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const sqlite = new BetterSqlite3(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A deletion overwrites what it frees with zeros (cells, index entries, freed pages), so a deleted account is not
  // left readable in the file's free space; the WAL is emptied after deletions by eraseDeletedFromDisk.
  sqlite.pragma('secure_delete = ON');
  const kept = keepingStatements(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: kept }) });
  sqliteConnections.set(db, { connection: sqlite, prepare: (text) => kept.prepare(text) });
  return db;
}

/**
 * After deletions of personal data: on SQLite, a `wal_checkpoint(TRUNCATE)`, which copies every WAL frame into the
 * main file (where `secure_delete` left the deleted bytes as zeros) and cuts the `-wal` to 0 bytes, so the frames
 * holding the rows as they were before (written there when the rows were made) are gone from disk. PASSIVE would
 * not do: it copies what it can and leaves the WAL file as it is, stale frames included (SQLite rewrites the WAL from
 * its start after a complete checkpoint, and frames past the new end stay readable). TRUNCATE waits, through the
 * busy timeout (5 s), for another process's reader or writer (a worker on the same file) to finish; if one still
 * holds the WAL it checkpoints what it can and answers `busy`, and the next housekeeping run (hourly) does it again.
 * Answers `emptied` or `busy`; on PostgreSQL it does nothing and answers `none` (dead tuples wait for VACUUM there:
 * docs/operations.md).
 */
export async function eraseDeletedFromDisk(db: Kysely<Database>): Promise<'emptied' | 'busy' | 'none'> {
  if (!sqliteConnections.has(db)) return 'none';
  // Through Kysely, which hands out the one connection to a statement or a whole transaction at a time: a
  // checkpoint cannot run inside another caller's open transaction.
  const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return rows[0]?.busy === 0 ? 'emptied' : 'busy';
}

/** The SQLite connection under a Kysely instance and its kept statements (db/prepared-read.ts); none on PostgreSQL. */
export interface SqliteConnection {
  connection: BetterSqlite3.Database;
  prepare: (text: string) => BetterSqlite3.Statement;
}
/** Kysely's `SqliteDatabase`, its `prepare` typed as better-sqlite3's own statement. */
type KeptStatements = Omit<SqliteDatabase, 'prepare'> & Pick<SqliteConnection, 'prepare'>;
const sqliteConnections = new WeakMap<Kysely<Database>, SqliteConnection>();
export const sqliteConnectionOf = (db: Kysely<Database>) => sqliteConnections.get(db);

/** The node-postgres pool under a Kysely instance (db/prepared-read.ts runs named statements on it); none on SQLite. */
const postgresPools = new WeakMap<Kysely<Database>, Pool>();
export const postgresPoolOf = (db: Kysely<Database>) => postgresPools.get(db);

/**
 * better-sqlite3 for Kysely, its prepared statements kept: Kysely asks for a new statement for every query, and
 * preparing one cost more than running it (verify-gift: about 38 µs of a 120 µs request; decision 027). The
 * statement of each SQL text is prepared once and reused, at most `max` texts (the oldest goes first); a statement
 * that is still being iterated (a streamed query) is not shared: that query gets a fresh one.
 */
export function keepingStatements(sqlite: BetterSqlite3.Database, max = 500): KeptStatements {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const kept = statements.get(text);
      if (kept && !kept.busy) return kept;
      const statement = sqlite.prepare(text);
      if (!kept) {
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
