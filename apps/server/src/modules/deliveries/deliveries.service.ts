import { Email } from '@giftlens/contract/common';
import { internationalPhone } from '@giftlens/contract/phone';
import { texts } from '@giftlens/contract/texts';
import type {
  ChangeDeliveryRequest,
  ContactType,
  Delivery,
  DeliveriesResponse,
  ScheduleRequest,
  ScheduleResponse,
  SendNowRequest,
} from '@giftlens/contract/scheduling';
import type { Clock } from '../../adapters/clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { deliveryJob, deliveryJobKey } from '../../jobs/keys.ts';
import { cancelJob, enqueue, requeueJob } from '../../jobs/queue.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { refuseIfTakenDown } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import * as repo from './deliveries.repository.ts';
import type { ScheduledMessage } from './deliveries.table.ts';

export interface DeliveriesDeps {
  db: Db;
  clock: Clock;
  /** Scheduled WhatsApp needs the Cloud API (WHATSAPP_* set): the recipient's opt-in and an approved template. */
  whatsappEnabled: boolean;
  /** Tells a job runner in this process that a job is due now (send-now), instead of at its next poll. */
  wakeJobs?: () => void;
}

export const WHATSAPP_OFF_REASON = 'WhatsApp delivery is not available yet, so we’ll send the link by e-mail.';

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function toDelivery(row: ScheduledMessage): Delivery {
  return {
    id: row.id,
    giftId: row.gift_id,
    contactType: row.contact_type,
    recipientContact: row.recipient_contact,
    scheduledDatetime: row.scheduled_at,
    timezone: row.timezone,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    sentAt: row.sent_at,
    createdAt: row.created_at,
  };
}

/** Why a delivery that has moved on can no longer change. */
function settledError(row: ScheduledMessage): AppError {
  if (row.status === 'sent') return new AppError(409, 'delivery_sent', texts.sender.deliveryAlreadySent);
  if (row.status === 'sending') return new AppError(409, 'delivery_sending', texts.sender.deliverySending);
  return new AppError(409, 'delivery_cancelled', texts.sender.deliveryCancelled);
}

const deliveryNotFound = () => new AppError(404, 'delivery_not_found', texts.sender.deliveryNotFound);

/**
 * Staff's "send again now" (modules/staff): a failed or sent delivery is queued again with fresh attempts, due now.
 * False when it is pending, being sent, or cancelled.
 */
export async function resendDelivery(trx: Executor, row: ScheduledMessage, now: Date): Promise<boolean> {
  const ok = await repo.changeDelivery(trx, row.id, ['failed', 'sent'], { status: 'pending', attempts: 0, last_error: null, scheduled_at: now.toISOString() }, now.toISOString());
  if (!ok) return false;
  const job = deliveryJob(row.id, row.gift_id);
  if (!(await requeueJob(trx, job.key, now, now))) await enqueue(trx, now, 'delivery.send', { deliveryId: row.id }, { runAt: now, ...job });
  return true;
}

/**
 * A pending delivery and its job at `at`, in the caller's transaction (the sender's schedule and send-now, a merchant
 * gift's release).
 */
export async function insertDelivery(
  trx: Executor,
  now: Date,
  d: { giftId: string; senderId: string; type: ContactType; contact: string; at: Date; timezone: string },
): Promise<ScheduledMessage> {
  const nowIso = now.toISOString();
  const row: ScheduledMessage = {
    id: randomHex(16),
    gift_id: d.giftId,
    sender_id: d.senderId,
    contact_type: d.type,
    recipient_contact: d.contact,
    scheduled_at: d.at.toISOString(),
    timezone: d.timezone,
    status: 'pending',
    attempts: 0,
    last_error: null,
    sent_at: null,
    created_at: nowIso,
    updated_at: nowIso,
  };
  await repo.insertScheduledMessage(trx, row);
  await enqueue(trx, now, 'delivery.send', { deliveryId: row.id }, { runAt: d.at, ...deliveryJob(row.id, row.gift_id) });
  return row;
}

export function createDeliveriesService({ db, clock, whatsappEnabled, wakeJobs }: DeliveriesDeps) {
  function checkContact(type: ContactType, contact: string): string {
    if (type === 'whatsapp') {
      if (!whatsappEnabled) throw new AppError(400, 'whatsapp_unavailable', texts.sender.whatsappUnavailable);
      // E.164 with the country code (the sender specification's numbers typed with "+"); separators as typed are dropped.
      const number = internationalPhone(contact, texts.sender.whatsappNumberInvalid);
      if (!number.ok) throw new AppError(400, 'whatsapp_number_invalid', number.error);
      return number.phone;
    }
    const email = Email.safeParse(contact);
    if (!email.success) throw new AppError(400, 'invalid_email', texts.sender.invalidEmail);
    return email.data;
  }

  function checkInstant(iso: string, timezone: string): Date {
    const at = new Date(iso);
    if (!(at.getTime() > clock.now().getTime())) throw new AppError(400, 'schedule_in_past', texts.sender.scheduleFuture);
    if (!isValidTimeZone(timezone)) throw new AppError(400, 'timezone_invalid', texts.sender.timezoneInvalid);
    return at;
  }

  async function paidGiftOf(sender: Sender, giftId: string) {
    const gift = await gifts.findSenderGift(db, giftId, sender.id);
    if (!gift) throw giftNotFound();
    refuseIfTakenDown(gift);
    if (gift.status !== 'active') throw new AppError(409, 'gift_not_paid', texts.sender.scheduleGiftNotPaid);
    return gift;
  }

  /** The delivery row and its job, in one transaction: there is never one without the other. */
  async function create(sender: Sender, giftId: string, type: ContactType, contact: string, at: Date, timezone: string): Promise<ScheduledMessage> {
    return db.transaction().execute((trx) => insertDelivery(trx, clock.now(), { giftId, senderId: sender.id, type, contact, at, timezone }));
  }

  async function ownDelivery(sender: Sender, id: string): Promise<ScheduledMessage> {
    const row = await repo.findSenderDelivery(db, id, sender.id);
    if (!row) throw deliveryNotFound();
    const gift = await gifts.findGift(db, row.gift_id);
    if (gift) refuseIfTakenDown(gift);
    return row;
  }

  return {
    whatsappEnabled,

    async schedule(sender: Sender, req: ScheduleRequest): Promise<ScheduleResponse> {
      const contact = checkContact(req.contactType, req.recipientContact);
      const at = checkInstant(req.scheduledDatetime, req.timezone);
      const gift = await paidGiftOf(sender, req.giftId);
      const row = await create(sender, gift.id, req.contactType, contact, at, req.timezone);
      return { success: true, id: row.id, scheduledDatetime: row.scheduled_at };
    },

    /** "Send by e-mail now": a delivery due at once, sent by the runner within seconds. */
    async sendNow(sender: Sender, req: SendNowRequest): Promise<Delivery> {
      const contact = checkContact(req.contactType, req.recipientContact);
      const timezone = req.timezone && isValidTimeZone(req.timezone) ? req.timezone : 'UTC';
      const gift = await paidGiftOf(sender, req.giftId);
      const row = await create(sender, gift.id, req.contactType, contact, clock.now(), timezone);
      wakeJobs?.();
      return toDelivery(row);
    },

    async list(sender: Sender, giftId: string): Promise<DeliveriesResponse> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      const rows = await repo.listForGift(db, gift.id);
      return {
        success: true,
        deliveries: rows.map(toDelivery),
        whatsapp: { available: whatsappEnabled, reason: whatsappEnabled ? null : WHATSAPP_OFF_REASON },
      };
    },

    /** A new instant and/or contact while it is pending; a failed one is queued again with fresh attempts. */
    async change(sender: Sender, id: string, req: ChangeDeliveryRequest): Promise<Delivery> {
      const row = await ownDelivery(sender, id);
      if (row.status !== 'pending' && row.status !== 'failed') throw settledError(row);
      const type = req.contactType ?? row.contact_type;
      const contact =
        req.recipientContact !== undefined || req.contactType !== undefined
          ? checkContact(type, req.recipientContact ?? row.recipient_contact)
          : row.recipient_contact;
      const timezone = req.timezone ?? row.timezone;
      let at = new Date(row.scheduled_at);
      if (req.scheduledDatetime !== undefined) at = checkInstant(req.scheduledDatetime, timezone);
      else if (!isValidTimeZone(timezone)) throw new AppError(400, 'timezone_invalid', texts.sender.timezoneInvalid);
      const now = clock.now();
      // A failed delivery whose instant has passed goes out now.
      const runAt = at.getTime() > now.getTime() ? at : now;
      const retry = row.status === 'failed';

      const changed = await db.transaction().execute(async (trx) => {
        const ok = await repo.changeDelivery(
          trx,
          row.id,
          [row.status],
          {
            contact_type: type,
            recipient_contact: contact,
            scheduled_at: runAt.toISOString(),
            timezone,
            ...(retry ? { status: 'pending' as const, attempts: 0, last_error: null } : {}),
          },
          now.toISOString(),
        );
        if (!ok) return false;
        // Whatever became of its job (waiting, dead, dead and cleaned away), the delivery has one due at runAt;
        // a job claimed right now finds the changed record and follows it.
        const job = deliveryJob(row.id, row.gift_id);
        if (!(await requeueJob(trx, job.key, runAt, now))) {
          await enqueue(trx, now, 'delivery.send', { deliveryId: row.id }, { runAt, ...job });
        }
        return true;
      });
      const current = await repo.findDelivery(db, row.id);
      if (!current) throw deliveryNotFound();
      if (!changed) throw settledError(current);
      if (runAt.getTime() <= now.getTime()) wakeJobs?.();
      return toDelivery(current);
    },

    /** Cancels a delivery not yet sent; its job is cancelled with it and a claimed one finds it cancelled. */
    async cancel(sender: Sender, id: string): Promise<Delivery> {
      const row = await ownDelivery(sender, id);
      if (row.status !== 'pending' && row.status !== 'failed') throw settledError(row);
      const now = clock.now();
      const cancelled = await db.transaction().execute(async (trx) => {
        const ok = await repo.changeDelivery(trx, row.id, ['pending', 'failed'], { status: 'cancelled' }, now.toISOString());
        if (ok) await cancelJob(trx, deliveryJobKey(row.id), now);
        return ok;
      });
      const current = await repo.findDelivery(db, row.id);
      if (!current) throw deliveryNotFound();
      if (!cancelled) throw settledError(current);
      return toDelivery(current);
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;
