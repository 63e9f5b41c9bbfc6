import type { Executor } from '../../db/database.ts';
import { countBefore, deleteBatchBefore } from '../../db/sweep.ts';

export async function insertGrant(db: Executor, g: { tokenHash: string; giftId: string; now: string; expiresAt: string }) {
  // Expired grants are left to housekeeping (bounded batches on reveal_grants_expires_idx): a delete of every expired
  // grant here made each scan's transaction contend with every other scan's for the same rows (decision 044).
  await db
    .insertInto('reveal_grants')
    .values({ token_hash: g.tokenHash, gift_id: g.giftId, created_at: g.now, expires_at: g.expiresAt })
    .execute();
}

export async function hasLiveGrant(db: Executor, tokenHash: string, giftId: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('reveal_grants')
    .select('token_hash')
    .where('token_hash', '=', tokenHash)
    .where('gift_id', '=', giftId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Renews a live grant of this gift to expire at `until`, never beyond `maxAgeMs` after it was made, never earlier than
 * it does already. Returns when it now expires, or null when there is no live grant.
 */
export async function renewGrant(db: Executor, tokenHash: string, giftId: string, now: string, until: Date, maxAgeMs: number): Promise<Date | null> {
  const row = await db
    .selectFrom('reveal_grants')
    .select(['created_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('gift_id', '=', giftId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  const cap = Date.parse(row.created_at) + maxAgeMs;
  const expires = new Date(Math.max(Date.parse(row.expires_at), Math.min(until.getTime(), cap)));
  if (expires.toISOString() !== row.expires_at) {
    await db.updateTable('reveal_grants').set({ expires_at: expires.toISOString() }).where('token_hash', '=', tokenHash).execute();
  }
  return expires;
}

/** Grants expired before `now`; at most `limit`. */
export const deleteExpiredGrants = (db: Executor, now: string, limit: number) =>
  deleteBatchBefore(db, 'reveal_grants', 'token_hash', 'expires_at', now, limit);
export const expiredGrantsLeft = (db: Executor, now: string) => countBefore(db, 'reveal_grants', 'token_hash', 'expires_at', now);
