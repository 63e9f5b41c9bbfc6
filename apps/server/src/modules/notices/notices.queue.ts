import type { Executor } from '../../db/database.ts';
import { noticeFanoutJob } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { NoticeEvent } from './notices.content.ts';

/**
 * Tells the sender about an event, once per gift and event: called in the transaction that records the event,
 * so the notice exists exactly when the event does.
 */
export async function queueSenderNotice(db: Executor, now: Date, event: NoticeEvent, giftId: string): Promise<void> {
  await enqueue(db, now, 'notice.fanout', { event, giftId }, noticeFanoutJob(event, giftId));
}
