import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { type WhatsAppSender, WhatsAppRefusedError } from '../../adapters/whatsapp.ts';
import type { Db } from '../../db/database.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import { type JobHandler, PermanentJobError } from '../../jobs/runner.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import { queueMerchantEvent } from '../merchants/merchant-events.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import { deliveryEmail, whatsappTemplateParams } from './deliveries.content.ts';
import * as repo from './deliveries.repository.ts';

export interface DeliveryJobDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  whatsapp: WhatsAppSender | null;
  /** Links in the message point here. */
  publicOrigin: string;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** Sends one delivery at its instant, once: see docs/decisions/013-jobs.md for the cases and the one window left. */
export function deliveryJob({ db, clock, mailer, whatsapp, publicOrigin }: DeliveryJobDeps): JobHandler<'delivery.send'> {
  return {
    async run({ deliveryId }, ctx) {
      const delivery = await repo.findDelivery(db, deliveryId);
      if (!delivery || delivery.status === 'sent' || delivery.status === 'cancelled' || delivery.status === 'failed') return;
      const now = clock.now();
      if (Date.parse(delivery.scheduled_at) > now.getTime()) return { rescheduleAt: new Date(delivery.scheduled_at) };
      if (!(await repo.markSending(db, delivery.id, now.toISOString(), ctx.attempt))) {
        // A change or a cancel came first: follow the record as it is now.
        const current = await repo.findDelivery(db, deliveryId);
        if (current?.status === 'pending') return { rescheduleAt: new Date(current.scheduled_at) };
        return;
      }

      const gift = await findGift(db, delivery.gift_id);
      const sender = gift ? await findSenderById(db, gift.sender_id) : undefined;
      if (!gift || !sender) throw new PermanentJobError('The gift no longer exists.');
      // Taken down by staff after it was scheduled: the link is not sent (the delivery fails with this reason).
      if (gift.taken_down_at) throw new PermanentJobError('The gift was taken down by staff.');
      const link = `${publicOrigin}/sharelink/${gift.id}`;
      try {
        if (ctx.signal.aborted) throw new Error('The worker stopped before sending; it will be sent shortly.');
        if (delivery.contact_type === 'email') {
          await mailer.send({
            to: delivery.recipient_contact,
            ...deliveryEmail({ senderFirstName: sender.first_name, recipientName: gift.recipient_name, link }),
            messageId: jobMessageId('delivery', ctx.id, publicOrigin),
          });
        } else {
          if (!whatsapp) throw new PermanentJobError('WhatsApp delivery is not configured on this server.');
          await whatsapp.send(delivery.recipient_contact, whatsappTemplateParams({ senderFirstName: sender.first_name, link }));
        }
      } catch (err) {
        await repo.markAttemptFailed(db, delivery.id, errorText(err), clock.now().toISOString());
        // A number or template WhatsApp refuses is refused on every retry: the delivery fails at once.
        throw err instanceof WhatsAppRefusedError ? new PermanentJobError(err.message) : err;
      }
      await db.transaction().execute(async (trx) => {
        const sentAt = clock.now();
        await repo.markSent(trx, delivery.id, sentAt.toISOString());
        await queueMerchantEvent(trx, sentAt, delivery.gift_id, 'gift.sent');
      });
    },

    async onDead({ deliveryId }, error) {
      await repo.markFailed(db, deliveryId, error, clock.now().toISOString());
    },
  };
}
