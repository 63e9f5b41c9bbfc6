import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/database.ts';
import { countBefore, deleteBatchBefore } from '../../db/sweep.ts';
import type { CodePurpose, SessionKind } from './auth.table.ts';

export const findCode = (db: Executor, id: string) => db.selectFrom('verification_codes').selectAll().where('id', '=', id).executeTakeFirst();

export const latestCode = (db: Executor, purpose: CodePurpose, destination: string) =>
  db
    .selectFrom('verification_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('destination', '=', destination)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Every purpose's codes: an address's pace counts what it was sent as a sender, a recipient, a contributor and staff. */
const PURPOSES: Record<CodePurpose, true> = { sender: true, recipient: true, contributor: true, staff: true };
/** Every code purpose: a read by address names them all, so the indexes that lead with the purpose serve it. */
export const CODE_PURPOSES = Object.keys(PURPOSES) as CodePurpose[];

/**
 * The codes sent to an address since `since`, of every purpose, oldest first (for the target's pace; the purposes are
 * named so the index, which leads with the purpose, still serves the read).
 */
export const codesSentSince = (db: Executor, destination: string, since: string) =>
  db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('purpose', 'in', CODE_PURPOSES)
    .where('destination', '=', destination)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();

/**
 * Holds, until the transaction ends, the right to add codes for this address: PostgreSQL takes a transaction-level
 * advisory lock on it (another node's transaction for the same address waits); SQLite needs nothing, as its one
 * connection runs one transaction at a time.
 */
export async function lockDestination(trx: Executor, destination: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext('verification_codes'), hashtext(${destination}))`.execute(trx);
}

export async function insertCode(
  db: Executor,
  code: { id: string; purpose: CodePurpose; destination: string; codeHash: string; expiresAt: string; now: string },
): Promise<void> {
  await db
    .insertInto('verification_codes')
    .values({
      id: code.id,
      purpose: code.purpose,
      destination: code.destination,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      attempts: 0,
      consumed_at: null,
      created_at: code.now,
    })
    .execute();
}

export async function deleteCode(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('verification_codes').where('id', '=', id).execute();
}

/** Older live codes die when a new one is sent: only the latest code can be used. */
export async function retireCodes(db: Executor, purpose: CodePurpose, destination: string, now: string) {
  await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('purpose', '=', purpose)
    .where('destination', '=', destination)
    .where('consumed_at', 'is', null)
    .execute();
}

/**
 * Takes one try before the code is compared, atomically: concurrent guesses cannot test more codes than there
 * are tries. Returns the tries used including this one, or null when none were left.
 */
export async function takeAttempt(db: Executor, id: string, maxAttempts: number): Promise<number | null> {
  const row = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .returning('attempts')
    .executeTakeFirst();
  return row ? row.attempts : null;
}

/**
 * Takes the target's mail slot for this purpose (its pace): inserted, or moved to `now` only when the last mail is at
 * or before `cutoff`. One statement, so of two simultaneous sends only one gets true.
 */
export async function claimResendSlot(
  db: Executor,
  purpose: CodePurpose,
  destination: string,
  now: string,
  cutoff: string,
): Promise<boolean> {
  const res = await db
    .insertInto('code_resends')
    .values({ purpose, destination, sent_at: now })
    .onConflict((oc) =>
      oc.columns(['purpose', 'destination']).doUpdateSet({ sent_at: now }).where('code_resends.sent_at', '<=', cutoff),
    )
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export const findResendSlot = (db: Executor, purpose: CodePurpose, destination: string) =>
  db
    .selectFrom('code_resends')
    .select('sent_at')
    .where('purpose', '=', purpose)
    .where('destination', '=', destination)
    .executeTakeFirst();

/** Gives the slot back after a send that failed (only if it is still ours). */
export async function releaseResendSlot(db: Executor, purpose: CodePurpose, destination: string, sentAt: string) {
  await db
    .deleteFrom('code_resends')
    .where('purpose', '=', purpose)
    .where('destination', '=', destination)
    .where('sent_at', '=', sentAt)
    .execute();
}

/** Consumes the code once (its try was taken by takeAttempt); false when a concurrent request consumed it first. */
export async function consumeCode(db: Executor, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function insertSession(
  db: Executor,
  s: { tokenHash: string; kind: SessionKind; subject: string; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ token_hash: s.tokenHash, kind: s.kind, subject: s.subject, created_at: s.now, expires_at: s.expiresAt })
    .execute();
}

export const findSession = (db: Executor, tokenHash: string, kind: SessionKind, now: string) =>
  db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Ends one session (sign out on this device). */
export async function deleteSession(db: Executor, tokenHash: string, kind: SessionKind): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).where('kind', '=', kind).execute();
}

/** Ends every session of a subject (sign out everywhere, or an account deleted). */
export async function deleteSubjectSessions(db: Executor, kind: SessionKind, subject: string): Promise<number> {
  const res = await db.deleteFrom('sessions').where('kind', '=', kind).where('subject', '=', subject).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Every code and resend slot of an address (an account deleted). */
export async function deleteCodesOf(db: Executor, destination: string): Promise<void> {
  // Every purpose named, so the indexes that lead with it serve the address.
  await db.deleteFrom('verification_codes').where('purpose', 'in', CODE_PURPOSES).where('destination', '=', destination).execute();
  await db.deleteFrom('code_resends').where('purpose', 'in', CODE_PURPOSES).where('destination', '=', destination).execute();
}

// Housekeeping's sweeps: at most `limit` rows per call (db/sweep.ts; the resend slots by their own key pair).

export const deleteExpiredCodes = (db: Executor, cutoff: string, limit: number) =>
  deleteBatchBefore(db, 'verification_codes', 'id', 'expires_at', cutoff, limit);
export const expiredCodesLeft = (db: Executor, cutoff: string) => countBefore(db, 'verification_codes', 'id', 'expires_at', cutoff);

export async function deleteOldResends(db: Executor, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('code_resends')
    .where((eb) =>
      eb(
        eb.refTuple('purpose', 'destination'),
        'in',
        eb
          .selectFrom('code_resends as r')
          .select(['r.purpose', 'r.destination'])
          .where('r.sent_at', '<', cutoff)
          .limit(limit)
          .$asTuple('purpose', 'destination'),
      ),
    )
    // Re-checked on the row itself: a slot taken again meanwhile is live.
    .where('sent_at', '<', cutoff)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export const oldResendsLeft = (db: Executor, cutoff: string) => countBefore(db, 'code_resends', 'purpose', 'sent_at', cutoff);

export const deleteExpiredSessions = (db: Executor, now: string, limit: number) =>
  deleteBatchBefore(db, 'sessions', 'token_hash', 'expires_at', now, limit);
export const expiredSessionsLeft = (db: Executor, now: string) => countBefore(db, 'sessions', 'token_hash', 'expires_at', now);
