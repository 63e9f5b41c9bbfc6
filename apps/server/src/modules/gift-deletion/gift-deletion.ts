import type { Executor } from '../../db/database.ts';
import { deleteJobsOfGifts } from '../../jobs/jobs.repository.ts';
import { enqueue } from '../../jobs/queue.ts';
import { giftFilesOf } from '../gifts/gift-cleanup.repository.ts';
import { deleteGiftRows, lockGifts } from '../gifts/gifts.repository.ts';
import { anyPaidOrder, deleteUnpaidOrders } from '../payments/payments.repository.ts';
import { groupFilesOf } from '../group-gifts/group-gifts.repository.ts';
import { reactionFilesOf } from '../reactions/reactions.repository.ts';
import { deleteGiftFailures } from '../scans/scans.repository.ts';
import { intentFilesOf } from '../uploads/uploads.repository.ts';

// The one way a gift is deleted with everything under it (docs/decisions/016 and 041): a sender deleting a gift or
// the account (modules/my-gifts) and housekeeping removing a stale unpaid gift. It owns no table: each table's own
// module does its part, and the foreign keys' ON DELETE CASCADE takes the rows that hang off a gift.

export class GiftChangedError extends Error {
  constructor() {
    super('a gift picked for clean-up changed meanwhile');
    this.name = 'GiftChangedError';
  }
}

/**
 * Every stored file of these gifts: photos, message and its poster, upload targets (the organizer's and the
 * contributors'), reaction and its poster, contributions and their posters, the group's combined MP4.
 */
export async function listGiftFiles(db: Executor, giftIds: string[]): Promise<string[]> {
  if (giftIds.length === 0) return [];
  const [gifts, intents, reactions, group] = await Promise.all([
    giftFilesOf(db, giftIds),
    intentFilesOf(db, giftIds),
    reactionFilesOf(db, giftIds),
    groupFilesOf(db, giftIds),
  ]);
  const files = [...gifts, ...intents.map((i) => i.file_path), ...reactions.flatMap((r) => [r.file_path, r.poster_path]), ...group];
  return [...new Set(files.filter((f): f is string => f !== null))];
}

/**
 * Deletes these gifts and every row under them, in the caller's transaction, and queues one `media.delete` job with
 * all their files (run after the commit, retried until every file is gone: a crash can neither leave a row naming a
 * missing file nor lose a file to delete).
 * - The gift rows are locked first: a render finishing meanwhile waits, then finds no gift and removes its output.
 * - Photos, upload intents, deliveries, reveal grants, the reaction and the group (its invitations and
 *   contributions) go by ON DELETE CASCADE; jobs, failed-scan
 *   counters and orders hold no foreign key and are deleted by their modules. A paid order stays (accounting).
 * - `onlyUnpaid` (housekeeping): if any gift turns out paid (the gift, or an order of it), it throws
 *   GiftChangedError so the caller's transaction rolls back and nothing is deleted.
 * Returns how many gifts were deleted.
 */
export async function deleteGifts(trx: Executor, giftIds: string[], now: Date, { onlyUnpaid = false } = {}): Promise<number> {
  if (giftIds.length === 0) return 0;
  await lockGifts(trx, giftIds);
  if (onlyUnpaid && (await anyPaidOrder(trx, giftIds))) throw new GiftChangedError();
  const files = await listGiftFiles(trx, giftIds);
  await deleteJobsOfGifts(trx, giftIds);
  await deleteGiftFailures(trx, giftIds);
  await deleteUnpaidOrders(trx, giftIds);
  const deleted = await deleteGiftRows(trx, giftIds, onlyUnpaid);
  if (onlyUnpaid && deleted !== giftIds.length) throw new GiftChangedError();
  if (files.length > 0) await enqueue(trx, now, 'media.delete', { keys: files });
  return deleted;
}
