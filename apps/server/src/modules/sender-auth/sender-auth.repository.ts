import type { Executor } from '../../db/database.ts';
import type { CodePurpose, NewSender, SessionKind, SenderUpdate } from './sender-auth.table.ts';

export const findSenderByEmail = (db: Executor, email: string) =>
  db.selectFrom('senders').selectAll().where('email', '=', email).executeTakeFirst();

export const findSenderById = (db: Executor, id: string) =>
  db.selectFrom('senders').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertSender(db: Executor, sender: NewSender): Promise<void> {
  await db.insertInto('senders').values(sender).execute();
}

export async function updateSender(db: Executor, id: string, update: SenderUpdate): Promise<void> {
  await db.updateTable('senders').set(update).where('id', '=', id).execute();
}

export const latestCode = (db: Executor, purpose: CodePurpose, destination: string) =>
  db
    .selectFrom('verification_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('destination', '=', destination)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

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

/** Counts a wrong try atomically; false when the code had no tries left. */
export async function recordWrongAttempt(db: Executor, id: string, maxAttempts: number): Promise<boolean> {
  const res = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Consumes the code once; false when a concurrent request consumed it first or it ran out of tries. */
export async function consumeCode(db: Executor, id: string, maxAttempts: number, now: string): Promise<boolean> {
  const res = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', maxAttempts)
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
