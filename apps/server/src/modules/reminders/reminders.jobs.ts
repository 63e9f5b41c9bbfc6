import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/database.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { listForGift } from '../deliveries/deliveries.repository.ts';
import { planOf, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import { recipientReminderEmail, senderReminderEmail } from './reminders.content.ts';
import { RECIPIENT_REMINDER_BEFORE_MS, SENDER_REMINDER_AFTER_MS } from './reminders.queue.ts';

export interface ReminderJobDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  backupCodes: BackupCodes;
  publicOrigin: string;
}

/** A gift that still wants reminding: paid, unopened, not refunded or taken down, reminders on, not ended. */
function wantsReminder(gift: Gift | undefined, now: number): gift is Gift {
  if (!gift || gift.status !== 'active' || gift.first_opened_at !== null || withdrawn(gift) || gift.reminders_off_at !== null) return false;
  const until = validUntil(gift, planOf(gift));
  return until === null || until > now;
}

/** Issue 40's two reminders, each sent at most once per gift (its job key), by whichever process claims the job. */
export function reminderJobs({ db, clock, mailer, backupCodes, publicOrigin }: ReminderJobDeps): Pick<JobHandlers, 'reminder.sender' | 'reminder.recipient'> {
  const link = (giftId: string) => `${publicOrigin}/sharelink/${giftId}`;

  const sender: JobHandler<'reminder.sender'> = {
    async run({ giftId }, ctx) {
      const now = clock.now().getTime();
      const gift = await findGift(db, giftId);
      if (!wantsReminder(gift, now)) return;
      // 48 hours after the link last went out: a delivery we sent, or else the payment (the sender shared it).
      // A delivery still to come moves the moment after it.
      const deliveries = await listForGift(db, giftId);
      const times = [
        Date.parse(gift.paid_at!),
        ...deliveries.flatMap((d) => (d.status === 'sent' && d.sent_at ? [Date.parse(d.sent_at)] : d.status === 'pending' || d.status === 'sending' ? [Date.parse(d.scheduled_at)] : [])),
      ];
      const due = Math.max(...times) + SENDER_REMINDER_AFTER_MS;
      if (due > now) return { rescheduleAt: new Date(due) };
      const owner = await findSenderById(db, gift.sender_id);
      if (!owner) return;
      await mailer.send({
        to: owner.email,
        ...senderReminderEmail({
          recipientName: gift.recipient_name,
          senderFirstName: owner.first_name,
          code: backupCodes.open(gift.id, gift.backup_code),
          link: link(gift.id),
          sharePage: `${publicOrigin}/share/${gift.id}`,
        }),
        messageId: jobMessageId('reminder-sender', ctx.id, publicOrigin),
      });
    },
  };

  const recipient: JobHandler<'reminder.recipient'> = {
    async run({ giftId }, ctx) {
      const now = clock.now().getTime();
      const gift = await findGift(db, giftId);
      if (!wantsReminder(gift, now) || !gift.recipient_email) return;
      const until = validUntil(gift, planOf(gift));
      if (until === null) return;
      // Staff extended the plan: the reminder moves with its end.
      if (until - RECIPIENT_REMINDER_BEFORE_MS > now) return { rescheduleAt: new Date(until - RECIPIENT_REMINDER_BEFORE_MS) };
      // A delivery still to come means the recipient has not been given the link: a reminder would spoil it.
      const deliveries = await listForGift(db, giftId);
      if (deliveries.some((d) => d.status === 'pending' || d.status === 'sending') && !deliveries.some((d) => d.status === 'sent')) return;
      const owner = await findSenderById(db, gift.sender_id);
      await mailer.send({
        to: gift.recipient_email,
        ...recipientReminderEmail({ recipientName: gift.recipient_name, senderName: owner?.first_name ?? null, link: link(gift.id) }),
        messageId: jobMessageId('reminder-recipient', ctx.id, publicOrigin),
      });
    },
  };

  return { 'reminder.sender': sender, 'reminder.recipient': recipient };
}
