import type { Executor } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import type { StaffMember } from './staff.table.ts';

// The staff module's two tables: its members' second factor and the audit trail (decision 051).

export const findMember = (db: Executor, email: string): Promise<StaffMember | undefined> =>
  db.selectFrom('staff_members').selectAll().where('email', '=', email).executeTakeFirst();

/** A new (or, before it was confirmed, a replaced) TOTP secret: enrolment starts again. */
export async function putPendingSecret(db: Executor, email: string, sealed: string, now: string): Promise<void> {
  await db
    .insertInto('staff_members')
    .values({ email, totp_secret: sealed, totp_confirmed_at: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('email').doUpdateSet({ totp_secret: sealed, totp_confirmed_at: null, last_totp_step: 0, updated_at: now }))
    .execute();
}

/**
 * Accepts a TOTP code's 30-second step: only a step newer than the last one accepted (a code is good once), and
 * confirms the enrolment on its first use. False when the step was used already (or a racing call took it).
 */
export async function acceptTotpStep(db: Executor, email: string, step: number, now: string): Promise<boolean> {
  const res = await db
    .updateTable('staff_members')
    .set((eb) => ({ last_totp_step: step, totp_confirmed_at: eb.fn.coalesce('totp_confirmed_at', eb.val(now)), updated_at: now }))
    .where('email', '=', email)
    .where('last_totp_step', '<', step)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** The members of `emails` who have a row (an enrolment started or confirmed). */
export const membersIn = (db: Executor, emails: readonly string[]): Promise<Pick<StaffMember, 'email' | 'totp_confirmed_at'>[]> =>
  emails.length ? db.selectFrom('staff_members').select(['email', 'totp_confirmed_at']).where('email', 'in', emails).execute() : Promise.resolve([]);

/** Forgets a member's authenticator: the next sign-in enrols a new one. True when there was one to forget. */
export async function forgetSecret(db: Executor, email: string): Promise<boolean> {
  const res = await db.deleteFrom('staff_members').where('email', '=', email).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export interface AuditInput {
  staffEmail: string;
  action: string;
  giftId: string | null;
  reason: string;
  details?: Record<string, unknown> | null;
  now: string;
}

export async function audit(db: Executor, e: AuditInput): Promise<void> {
  await db
    .insertInto('staff_audit')
    .values({
      id: randomHex(16),
      staff_email: e.staffEmail,
      action: e.action,
      gift_id: e.giftId,
      reason: e.reason,
      details: e.details ? JSON.stringify(e.details) : null,
      created_at: e.now,
    })
    .execute();
}

/** The newest entries, of one gift or all. */
export function auditEntries(db: Executor, giftId: string | null, limit: number) {
  let q = db.selectFrom('staff_audit').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit);
  if (giftId) q = q.where('gift_id', '=', giftId);
  return q.execute();
}
