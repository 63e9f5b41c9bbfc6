import type { Executor } from '../../db/database.ts';
import { countBefore, deleteBatchBefore } from '../../db/sweep.ts';

/** The scopes failed scans are counted in (scan_failures.scope). */
export const failureScope = {
  gift: (giftId: string) => `gift:${giftId}`,
  /** Backup-code tries of a gift (decision 039). */
  code: (giftId: string) => `code:${giftId}`,
  /** Backup-code tries of a gift from one client address. */
  codeClient: (giftId: string, address: string) => `code:${giftId}:ip:${address}`,
  /** Backup-code tries from one client address, every gift. */
  codeIp: (address: string) => `code-ip:${address}`,
  recipient: (email: string) => `recipient:${email}`,
  ip: (address: string) => `ip:${address}`,
};

export async function recordFailures(db: Executor, rows: { id: string; scope: string }[], now: string, pruneBefore: string) {
  await db.deleteFrom('scan_failures').where('created_at', '<', pruneBefore).execute();
  await db
    .insertInto('scan_failures')
    .values(rows.map((r) => ({ ...r, created_at: now })))
    .execute();
}

/** Takes rows back (a backup-code try that turned out right, or was not made). */
export async function deleteFailures(db: Executor, ids: string[]) {
  if (ids.length > 0) await db.deleteFrom('scan_failures').where('id', 'in', ids).execute();
}

/** The failure times of this scope since `since`, newest first (at most `limit`). */
export const recentFailures = (db: Executor, scope: string, since: string, limit: number) =>
  db
    .selectFrom('scan_failures')
    .select('created_at')
    .where('scope', '=', scope)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();

/** The counters of deleted gifts (their scans and backup-code tries). */
export async function deleteGiftFailures(db: Executor, giftIds: string[]): Promise<void> {
  if (giftIds.length === 0) return;
  // Each address's tries of these gifts (code:{giftId}:ip:…) are not named: they leave with their hour like any other.
  await db.deleteFrom('scan_failures').where('scope', 'in', giftIds.flatMap((id) => [failureScope.gift(id), failureScope.code(id)])).execute();
}

/** The counter of a recipient address (an account deleted). */
export async function deleteRecipientFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('scan_failures').where('scope', '=', failureScope.recipient(email)).execute();
}

/** Failures older than `cutoff` no longer count; at most `limit` go. */
export const deleteOldScanFailures = (db: Executor, cutoff: string, limit: number) =>
  deleteBatchBefore(db, 'scan_failures', 'id', 'created_at', cutoff, limit);
export const oldScanFailuresLeft = (db: Executor, cutoff: string) => countBefore(db, 'scan_failures', 'id', 'created_at', cutoff);

/** How a scan of a gift ended, for its timeline (the staff console): revealed, no match, or its scans used up. */
export type ScanOutcomeKind = 'revealed' | 'no_match' | 'limit_reached';
/** photo (a taken photo), live (a camera frame), code (the backup code). */
export type ScanFlow = 'photo' | 'live' | 'code';

export async function recordScanEvent(db: Executor, e: { id: string; giftId: string; outcome: ScanOutcomeKind; flow: ScanFlow; score: number | null; now: string }) {
  await db.insertInto('scan_events').values({ id: e.id, gift_id: e.giftId, outcome: e.outcome, flow: e.flow, score: e.score, created_at: e.now }).execute();
}

/** A gift's scans, oldest first (at most `limit`). */
export const scanEventsOf = (db: Executor, giftId: string, limit: number) =>
  db.selectFrom('scan_events').selectAll().where('gift_id', '=', giftId).orderBy('created_at').limit(limit).execute();
