import type { WebhookBody, WebhookType } from '@giftlens/contract/merchants';
import type { Executor } from '../../db/database.ts';
import { merchantReleaseJob, merchantWebhookJobKey } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';
import { randomHex } from '../../lib/crypto.ts';
import * as repo from './merchants.repository.ts';

const MOMENT: Record<WebhookType, repo.MomentColumn> = {
  'gift.message_ready': 'message_ready_at',
  'gift.sent': 'sent_at',
  'gift.opened': 'opened_at',
  'gift.reaction_ready': 'reaction_ready_at',
  'gift.cancelled': 'cancelled_at',
};

/**
 * A step of a merchant's gift (decision 058): records its moment once and queues the signed webhook that tells the
 * shop (one per gift and type). Called by the module where the step happens, in its transaction where it has one;
 * a sender's own gift (no merchant_gifts row) costs one primary-key read and nothing else. A message made ready also
 * queues the release check (the recipient's link goes once the message is ready and the release is due).
 */
export async function queueMerchantEvent(db: Executor, now: Date, giftId: string, type: WebhookType): Promise<void> {
  const gift = await repo.findMerchantGift(db, giftId);
  if (!gift) return;
  const at = now.toISOString();
  if (!(await repo.markMoment(db, giftId, MOMENT[type], at))) return;
  const id = randomHex(16);
  const body: WebhookBody = { id, type, giftId, orderId: gift.order_id, at };
  await repo.insertWebhook(db, { id, merchant_id: gift.merchant_id, gift_id: giftId, type, body: JSON.stringify(body), delivered_at: null, created_at: at });
  // Not tied to the gift's jobs: a shop still hears of a gift deleted after the event.
  await enqueue(db, now, 'merchant.webhook', { webhookId: id }, { key: merchantWebhookJobKey(id) });
  if (type === 'gift.message_ready') await enqueue(db, now, 'merchant.release', { giftId }, merchantReleaseJob(giftId, 'ready'));
}
