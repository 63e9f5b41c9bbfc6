import type { Executor } from '../db/database.ts';
import { deliveryJobKey, giftJobKeyPatterns, paymentConfirmationKey } from './keys.ts';

// The jobs table's queries beyond enqueueing (queue.ts) and running (runner.ts): what deleting a gift and
// housekeeping ask of it. Jobs reference their records by key, not by a foreign key, so nothing cascades here.

/**
 * Deletes every job that would still act on these gifts: their deliveries' sends (`deliveryIds`), notices, renders
 * and the payment confirmation.
 */
export async function deleteJobsOfGifts(db: Executor, giftIds: string[], deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length > 0) await db.deleteFrom('jobs').where('key', 'in', deliveryIds.map(deliveryJobKey)).execute();
  for (const id of giftIds) {
    await db
      .deleteFrom('jobs')
      .where((eb) => eb.or([...giftJobKeyPatterns(id).map((p) => eb('key', 'like', p)), eb('key', '=', paymentConfirmationKey(id))]))
      .execute();
  }
}

/**
 * Jobs of these kinds that ended (done, dead or cancelled) before `cutoff` and may have left files behind: every one
 * that took more than one attempt or did not finish well. In id order after `afterId`, at most `limit`.
 */
export function endedJobsWithLeftovers(db: Executor, kinds: readonly string[], cutoff: string, afterId: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'payload', 'attempts'])
    .where('kind', 'in', kinds)
    .where('status', 'in', ['done', 'dead', 'cancelled'])
    .where('finished_at', '<', cutoff)
    .where((eb) => eb.or([eb('attempts', '>', 1), eb('status', '!=', 'done')]))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Finished jobs (done or cancelled) finished before `finishedBefore`, dead ones before `deadBefore`; at most `limit`. */
export async function deleteOldJobs(db: Executor, finishedBefore: string, deadBefore: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('status', 'in', ['done', 'cancelled']), w('finished_at', '<', finishedBefore)]),
            w.and([w('status', '=', 'dead'), w('finished_at', '<', deadBefore)]),
          ]),
        )
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
