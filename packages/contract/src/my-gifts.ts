import { z } from 'zod';
import { PLAN_IDS } from './plans.ts';
import { Delivery } from './scheduling.ts';
import { GiftStatus, MessageState, QualityReason } from './sender.ts';

export { MessageState };


export const MyGift = z.object({
  id: z.string(),
  status: GiftStatus,
  recipientName: z.string(),
  recipientEmail: z.string().nullable(),
  occasion: z.string(),
  planId: z.enum(PLAN_IDS),
  planName: z.string(),
  messageType: z.enum(['video', 'audio', 'text']).nullable(),
  messageState: MessageState,
  messageError: z.string().nullable(),
  /** Signed, short-lived URLs for the sender's own view. */
  photoUrl: z.string().nullable(),
  /**
   * How recognisable the gift is: its best photo's rating 1-5 and why it is low (decision 031); null while none of
   * its photos is rated (enrolled before the rating existed, and not yet rated by housekeeping).
   */
  recognisability: z.object({ rating: z.number().int().min(1).max(5), reasons: z.array(QualityReason) }).nullable(),
  messageUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /** Reveals used (each successful scan counts) and the plan's allowance (null: unlimited). */
  scansUsed: z.number().int(),
  scansAllowed: z.number().int().nullable(),
  paidAt: z.string().nullable(),
  /** When the plan's validity ends (null: never, or not paid yet). */
  validUntil: z.string().nullable(),
  /** The plan's time or scans are used up. */
  ended: z.boolean(),
  firstOpenedAt: z.string().nullable(),
  /** Until the gift is first opened the sender may record or upload the message again. */
  canReplaceMessage: z.boolean(),
  /** Attachment URLs where the plan includes downloads (`downloads` entitlement); null otherwise. */
  downloads: z.object({ message: z.string().nullable(), reaction: z.string().nullable() }),
  /** The recipient's recorded reaction (Lifetime, with consent). */
  reaction: z
    .object({ url: z.string(), mime: z.string(), posterUrl: z.string().nullable(), recordedAt: z.string() })
    .nullable(),
  /**
   * The recipient's recording, whatever its state: processing while it is converted (the sender's notice waits for
   * it), ready (then `reaction` holds it), failed (it could not be converted); null when none was recorded.
   */
  reactionState: z.enum(['processing', 'ready', 'failed']).nullable(),
  deliveries: z.array(Delivery),
  /** The gift's 8-digit backup code (decision 039), for a paid gift only; only its sender ever sees it. */
  backupCode: z.string().regex(/^\d{8}$/).nullable(),
  createdAt: z.string(),
});
export type MyGift = z.infer<typeof MyGift>;

// GET /api/gift-sender/gifts: the session's gifts, newest first.
export const MyGiftsResponse = z.object({ success: z.literal(true), gifts: z.array(MyGift) });
export type MyGiftsResponse = z.infer<typeof MyGiftsResponse>;
