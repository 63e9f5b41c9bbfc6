import { Email } from '@giftlens/contract/common';
import { M } from '@giftlens/contract/messages';
import type { ScheduleRequest, ScheduleResponse } from '@giftlens/contract/scheduling';
import type { Clock } from '../../adapters/clock.ts';
import type { Db } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import * as repo from './deliveries.repository.ts';

export interface DeliveriesDeps {
  db: Db;
  clock: Clock;
  /** Scheduled WhatsApp needs the Cloud API (opt-in + approved template); it is not configured yet. */
  whatsappEnabled: boolean;
}

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function createDeliveriesService({ db, clock, whatsappEnabled }: DeliveriesDeps) {
  return {
    /** Stores a durable job; sending it at the chosen instant is the job worker's (a later issue). */
    async schedule(sender: Sender, req: ScheduleRequest): Promise<ScheduleResponse> {
      let contact = req.recipientContact;
      if (req.contactType === 'whatsapp') {
        if (!whatsappEnabled) throw new AppError(400, 'whatsapp_unavailable', M.whatsappUnavailable);
      } else {
        const email = Email.safeParse(contact);
        if (!email.success) throw new AppError(400, 'invalid_email', M.invalidEmail);
        contact = email.data;
      }
      const scheduledAt = new Date(req.scheduledDatetime);
      const now = clock.now();
      if (!(scheduledAt.getTime() > now.getTime())) throw new AppError(400, 'schedule_in_past', M.scheduleFuture);
      if (!isValidTimeZone(req.timezone)) throw new AppError(400, 'timezone_invalid', M.timezoneInvalid);

      const gift = await gifts.findSenderGift(db, req.giftId, sender.id);
      if (!gift) throw giftNotFound();
      if (gift.status !== 'active') throw new AppError(409, 'gift_not_paid', M.scheduleGiftNotPaid);

      const id = randomHex(16);
      const nowIso = now.toISOString();
      await repo.insertScheduledMessage(db, {
        id,
        gift_id: gift.id,
        sender_id: sender.id,
        contact_type: req.contactType,
        recipient_contact: contact,
        scheduled_at: scheduledAt.toISOString(),
        timezone: req.timezone,
        status: 'pending',
        attempts: 0,
        last_error: null,
        sent_at: null,
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { success: true, id, scheduledDatetime: scheduledAt.toISOString() };
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;
