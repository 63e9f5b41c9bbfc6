import * as z from 'zod/mini';
import { GiftId } from './common.ts';
import { texts } from './texts.ts';

export const ContactType = z.enum(['whatsapp', 'email']);
export type ContactType = z.infer<typeof ContactType>;

const RecipientContact = z
  .string({ error: texts.sender.scheduleContactRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: texts.sender.scheduleContactRequired }),
    z.maxLength(254, { error: texts.sender.scheduleContactRequired }),
  );
const ScheduledDatetime = z.iso.datetime({ offset: true, error: texts.sender.scheduleDateTimeRequired });
const TimeZone = z.string({ error: texts.sender.timezoneInvalid }).check(z.minLength(1, { error: texts.sender.timezoneInvalid }), z.maxLength(64, { error: texts.sender.timezoneInvalid }));

// POST /api/scheduled-messages
export const ScheduleRequest = z.object({
  giftId: GiftId,
  recipientContact: RecipientContact,
  contactType: ContactType,
  scheduledDatetime: ScheduledDatetime,
  timezone: TimeZone,
});
export type ScheduleRequest = z.infer<typeof ScheduleRequest>;
export const ScheduleResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  scheduledDatetime: z.string(),
});
export type ScheduleResponse = z.infer<typeof ScheduleResponse>;

/**
 * pending: waiting for its instant (or for a retry after a failed attempt, see lastError);
 * sending: a worker is handing it to the mail server right now; sent; failed: every attempt failed (lastError
 * says why; changing it sends it again); cancelled by the sender.
 */
export const DeliveryStatus = z.enum(['pending', 'sending', 'sent', 'failed', 'cancelled']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const Delivery = z.object({
  id: z.string(),
  giftId: z.string(),
  contactType: ContactType,
  recipientContact: z.string(),
  /** The instant, UTC ISO. */
  scheduledDatetime: z.string(),
  /** The sender's IANA time zone, to show the instant as they chose it. */
  timezone: z.string(),
  status: DeliveryStatus,
  attempts: z.number().check(z.int()),
  lastError: z.nullable(z.string()),
  sentAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Delivery = z.infer<typeof Delivery>;

// GET /api/scheduled-messages?giftId=…
export const DeliveriesQuery = z.object({ giftId: GiftId });
export const DeliveriesResponse = z.object({
  success: z.literal(true),
  deliveries: z.array(Delivery),
  /** Scheduled WhatsApp needs the Cloud API; when it is off, `reason` says so for the page. */
  whatsapp: z.object({ available: z.boolean(), reason: z.nullable(z.string()) }),
});
export type DeliveriesResponse = z.infer<typeof DeliveriesResponse>;

// PATCH /api/scheduled-messages/{id}: a new instant (with its zone) and/or a new contact.
export const ChangeDeliveryRequest = z
  .object({
    recipientContact: z.optional(RecipientContact),
    contactType: z.optional(ContactType),
    scheduledDatetime: z.optional(ScheduledDatetime),
    timezone: z.optional(TimeZone),
  })
  .check(
    z.refine((b) => b.recipientContact !== undefined || b.scheduledDatetime !== undefined, {
      error: texts.sender.deliveryNothingToChange,
    }),
  );
export type ChangeDeliveryRequest = z.infer<typeof ChangeDeliveryRequest>;

export const DeliveryResponse = z.object({ success: z.literal(true), delivery: Delivery });
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;

// POST /api/scheduled-messages/send-now: an e-mail (or WhatsApp) delivery due at once.
export const SendNowRequest = z.object({
  giftId: GiftId,
  recipientContact: RecipientContact,
  contactType: ContactType,
  timezone: z.optional(TimeZone),
});
export type SendNowRequest = z.infer<typeof SendNowRequest>;

/** The text and link a sender shares by hand (WhatsApp link, Web Share); the e-mail says the same. */
export function shareText(senderFirstName: string | null, link: string): string {
  const from = senderFirstName ? `${senderFirstName} has` : 'Someone has';
  return `${from} left you a personal message with your gift. Open this link and photograph the gift to see it: ${link}`;
}
