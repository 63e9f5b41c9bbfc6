import * as z from 'zod/mini';
import { PLAN_IDS } from './plans.ts';
import { Delivery } from './scheduling.ts';
import { GiftStatus, MessageState, QualityReason } from './sender.ts';

export { MessageState };


export const MyGift = z.object({
  id: z.string(),
  status: GiftStatus,
  recipientName: z.string(),
  recipientEmail: z.nullable(z.string()),
  occasion: z.string(),
  planId: z.enum(PLAN_IDS),
  planName: z.string(),
  messageType: z.nullable(z.enum(['video', 'audio', 'text'])),
  messageState: MessageState,
  messageError: z.nullable(z.string()),
  /** Signed, short-lived URLs for the sender's own view. */
  photoUrl: z.nullable(z.string()),
  /**
   * How recognisable the gift is: its best photo's rating 1-5 and why it is low (decision 031); null while none of
   * its photos is rated (enrolled before the rating existed, and not yet rated by housekeeping).
   */
  recognisability: z.nullable(z.object({ rating: z.number().check(z.int(), z.gte(1), z.lte(5)), reasons: z.array(QualityReason) })),
  messageUrl: z.nullable(z.string()),
  posterUrl: z.nullable(z.string()),
  /** Reveals used (each successful scan counts) and the plan's allowance (null: unlimited). */
  scansUsed: z.number().check(z.int()),
  scansAllowed: z.nullable(z.number().check(z.int())),
  /**
   * More scans the sender can buy now (issue 40: a paid gift with a scan limit, within its validity, not withdrawn):
   * how many and the price in the plan's currency; null otherwise. My Gifts offers it when the scans ran out.
   */
  scanTopUp: z.optional(z.nullable(z.object({ scans: z.number().check(z.int()), price: z.string() }))),
  paidAt: z.nullable(z.string()),
  /** When the plan's validity ends (null: never, or not paid yet). */
  validUntil: z.nullable(z.string()),
  /** The plan's time or scans are used up (or the gift was refunded or taken down). */
  ended: z.boolean(),
  /** Refunded, or taken down by staff (issue 37): the gift opens no more; a taken-down one cannot be changed or deleted. */
  withdrawn: z.optional(z.enum(['refunded', 'taken_down'])),
  firstOpenedAt: z.nullable(z.string()),
  /** The gift's reminders (issue 40: the sender's "not opened yet", the recipient's "ends tomorrow") are on. */
  remindersEnabled: z.optional(z.boolean()),
  /** Until the gift is first opened the sender may record or upload the message again. */
  canReplaceMessage: z.boolean(),
  /** Attachment URLs where the plan includes downloads (`downloads` entitlement); null otherwise. */
  downloads: z.object({ message: z.nullable(z.string()), reaction: z.nullable(z.string()) }),
  /** The recipient's recorded reaction (Lifetime, with consent). */
  reaction: z.nullable(
    z.object({ url: z.string(), mime: z.string(), posterUrl: z.nullable(z.string()), recordedAt: z.string() }),
  ),
  /**
   * The recipient's recording, whatever its state: processing while it is converted (the sender's notice waits for
   * it), ready (then `reaction` holds it), failed (it could not be converted); null when none was recorded.
   */
  reactionState: z.nullable(z.enum(['processing', 'ready', 'failed'])),
  deliveries: z.array(Delivery),
  /** The gift's 8-digit backup code (decision 039), for a paid gift only; only its sender ever sees it. */
  backupCode: z.nullable(z.string().check(z.regex(/^\d{8}$/))),
  createdAt: z.string(),
});
export type MyGift = z.infer<typeof MyGift>;

// GET /api/gift-sender/gifts: the session's gifts, newest first.
export const MyGiftsResponse = z.object({ success: z.literal(true), gifts: z.array(MyGift) });
export type MyGiftsResponse = z.infer<typeof MyGiftsResponse>;

// PUT /api/gift-sender/gifts/{giftId}/reminders: the sender turns the gift's reminders on or off (issue 40).
export const RemindersRequest = z.strictObject({ enabled: z.boolean() });
export type RemindersRequest = z.infer<typeof RemindersRequest>;
export const RemindersResponse = z.object({ success: z.literal(true), giftId: z.string(), remindersEnabled: z.boolean() });
export type RemindersResponse = z.infer<typeof RemindersResponse>;
