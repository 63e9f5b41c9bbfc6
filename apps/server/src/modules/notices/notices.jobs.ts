import { addScansPath } from '@giftlens/contract/checkout-return';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { PushSender } from '../../adapters/push.ts';
import type { Db } from '../../db/database.ts';
import { noticeMailJob, noticePushJob } from '../../jobs/keys.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import { deleteSubscription, findSubscription, listSenderSubscriptions } from '../push/push.repository.ts';
import { queueMerchantEvent } from '../merchants/merchant-events.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import { noticeEmail, noticePush, type NoticeEvent } from './notices.content.ts';

export interface NoticeJobDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  push: PushSender;
  publicOrigin: string;
}

/** Where a notice takes the sender: the gift's share page, or for 'scans-out' the page that adds scans. */
const giftPagePath = (giftId: string, event: NoticeEvent) => (event === 'scans-out' ? addScansPath(giftId) : `/share/${giftId}`);

/**
 * A notice is split into single-effect jobs (one e-mail, one push per device), each with its own key: a failing
 * push service never makes the e-mail go twice, and a retried fan-out adds nothing it added before.
 */
export function noticeJobs({ db, clock, mailer, push, publicOrigin }: NoticeJobDeps): Pick<
  JobHandlers,
  'notice.fanout' | 'notice.mail' | 'notice.push'
> {
  async function giftAndSender(giftId: string) {
    const gift = await findGift(db, giftId);
    const sender = gift ? await findSenderById(db, gift.sender_id) : undefined;
    return gift && sender ? { gift, sender } : null;
  }

  const fanout: JobHandler<'notice.fanout'> = {
    async run({ event, giftId }) {
      // A merchant's gift: the shop hears of the same event by its webhook (decision 058).
      await db.transaction().execute((trx) => queueMerchantEvent(trx, clock.now(), giftId, event === 'opened' ? 'gift.opened' : 'gift.reaction_ready'));
      const found = await giftAndSender(giftId);
      if (!found) return;
      const devices = await listSenderSubscriptions(db, found.sender.id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await enqueue(trx, now, 'notice.mail', { event, giftId }, noticeMailJob(event, giftId));
        for (const d of devices) {
          await enqueue(trx, now, 'notice.push', { event, giftId, subscriptionId: d.id }, noticePushJob(event, giftId, d.id));
        }
      });
    },
  };

  const mail: JobHandler<'notice.mail'> = {
    async run({ event, giftId }, ctx) {
      const found = await giftAndSender(giftId);
      if (!found) return;
      await mailer.send({
        to: found.sender.email,
        ...noticeEmail(event, {
          giftId,
          recipientName: found.gift.recipient_name,
          senderFirstName: found.sender.first_name,
          url: `${publicOrigin}${giftPagePath(giftId, event)}`,
        }),
        messageId: jobMessageId(`notice-${event}`, ctx.id, publicOrigin),
      });
    },
  };

  const pushNotice: JobHandler<'notice.push'> = {
    async run({ event, giftId, subscriptionId }) {
      const [found, device] = await Promise.all([giftAndSender(giftId), findSubscription(db, subscriptionId)]);
      if (!found || !device || device.sender_id !== found.sender.id) return;
      const result = await push.send(
        device,
        noticePush(event, { giftId, recipientName: found.gift.recipient_name, url: giftPagePath(giftId, event) }),
      );
      // The browser dropped the subscription (uninstalled, permission withdrawn): forget it.
      if (result === 'gone') await deleteSubscription(db, device.id);
    },
  };

  return { 'notice.fanout': fanout, 'notice.mail': mail, 'notice.push': pushNotice };
}
