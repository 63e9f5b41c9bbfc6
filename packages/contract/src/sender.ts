import * as z from 'zod/mini';
import { Code, Email, GiftId, PLAIN_NAME } from './common.ts';
import { FIRST_NAME_MAX, TEXT_MESSAGE_MAX } from './constants.ts';
import { texts } from './texts.ts';
import { OCCASIONS } from './occasions.ts';
import { findPlan, PLAN_IDS, type PlanId, type Region } from './plans.ts';
import { regionalPhone } from './phone.ts';

// POST /api/gift-sender/send-email
export const SendEmailRequest = z.object({ email: Email, type: z.literal('sender') });
export type SendEmailRequest = z.infer<typeof SendEmailRequest>;
export const SendCodeResponse = z.object({ success: z.literal(true), resendAfter: z.number().check(z.int()) });
export type SendCodeResponse = z.infer<typeof SendCodeResponse>;

// POST /api/gift-sender/send-whatsapp (switched off in the interface; the server answers 503)
export const SendWhatsappRequest = z.object({
  phoneNumber: z.string().check(z.regex(/^\+?\d{10,15}$/)),
  type: z.literal('sender'),
});

// POST /api/gift-sender/verify-email
export const VerifyEmailRequest = z.object({ email: Email, code: Code, type: z.literal('sender') });
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequest>;
export const VerifyResponse = z.object({
  success: z.literal(true),
  isNewUser: z.boolean(),
  firstName: z.nullable(z.string()),
});
export type VerifyResponse = z.infer<typeof VerifyResponse>;

export const FirstName = z
  .string({ error: texts.sender.firstNameRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: texts.sender.firstNameRequired }),
    z.maxLength(FIRST_NAME_MAX, { error: texts.sender.firstNameTooLong }),
    z.regex(PLAIN_NAME, { error: texts.sender.firstNameInvalid }),
  );

// POST /api/gift-sender/update-user  (acts on the session's sender; email/phone must be the session's)
export const UpdateUserRequest = z.object({
  firstName: FirstName,
  email: z.optional(Email),
  phoneNumber: z.optional(z.string()),
});
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

// GET /api/gift-sender/me
export const MeResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  firstName: z.nullable(z.string()),
});
export type MeResponse = z.infer<typeof MeResponse>;

const planRegion = (id: PlanId): Region => findPlan(id)?.region ?? 'US';

// POST /api/gift-sender/submit-gift (multipart; giftImage is the file part, up to 3 files named giftImage)
const SubmitGiftObject = z.object({
  senderEmail: z.optional(z.string()),
  senderPhone: z.optional(z.string()),
  recipientName: z
    .string({ error: texts.sender.recipientNameRequired })
    .check(
      z.trim(),
      z.minLength(1, { error: texts.sender.recipientNameRequired }),
      z.maxLength(80, { error: texts.sender.recipientNameTooLong }),
      z.regex(PLAIN_NAME, { error: texts.sender.recipientNameInvalid }),
    ),
  occasion: z.enum(OCCASIONS, { error: texts.sender.occasionRequired }),
  planId: z.enum(PLAN_IDS, { error: texts.sender.planRequired }),
  recipientEmail: z.optional(z.string().check(z.trim(), z.toLowerCase())),
  recipientPhone: z.optional(z.string().check(z.trim())),
});
type SubmitGiftObject = z.output<typeof SubmitGiftObject>;
export const SubmitGiftFields = z.pipe(
  SubmitGiftObject,
  z.transform((v: SubmitGiftObject, ctx): SubmitGiftObject => {
    const email = v.recipientEmail ?? '';
    if (!email && !v.recipientPhone) {
      ctx.issues.push({ code: 'custom', path: ['recipientEmail'], message: texts.sender.recipientContactRequired, input: v });
    } else if (email && !Email.safeParse(email).success) {
      ctx.issues.push({ code: 'custom', path: ['recipientEmail'], message: texts.sender.invalidEmail, input: v });
    }
    if (!v.recipientPhone) return v;
    // Optional beside an e-mail, but a number given is checked: one without "+" is read in the
    // plan's region (the India plans for India, the US plans for everyone else) and kept as "+{code}{digits}".
    const phone = regionalPhone(planRegion(v.planId), v.recipientPhone);
    if (!phone.ok) {
      ctx.issues.push({ code: 'custom', path: ['recipientPhone'], message: phone.error, input: v });
      return z.NEVER;
    }
    return { ...v, recipientPhone: phone.phone };
  }),
);
export type SubmitGiftFields = z.infer<typeof SubmitGiftFields>;

/** Why a gift photo is hard to recognise (decision 031). */
export const QUALITY_REASONS = ['plain', 'blurred', 'small', 'repetitive', 'concentrated'] as const;
export const QualityReason = z.enum(QUALITY_REASONS);
export type QualityReason = z.infer<typeof QualityReason>;

/** Ratings at or under this show the reasons and the advice to add another angle (the wizard, My gifts). */
export const LOW_RATING = 3;

export const PhotoQuality = z.object({
  /** exactly rating >= 3 */
  recognisable: z.boolean(),
  score: z.number(),
  /** 1 (a scan will rarely find it) .. 5 (easily recognised) */
  rating: z.number().check(z.int(), z.gte(1), z.lte(5)),
  /** why the rating is low, cause before symptom; empty when nothing holds it back */
  reasons: z.array(QualityReason),
  message: z.optional(z.string()),
});
export type PhotoQuality = z.infer<typeof PhotoQuality>;

export const SubmitGiftResponse = z.object({
  success: z.literal(true),
  giftId: GiftId,
  /** How recognisable the gift photo is (filled once the matcher enrols the photo). */
  quality: z.optional(PhotoQuality),
  /**
   * True when another active gift for the same recipient e-mail has a photo that a scan cannot tell from this one.
   * Only yes/no: nothing about the other gift or its sender (decision 031).
   */
  lookalike: z.boolean(),
});
export type SubmitGiftResponse = z.infer<typeof SubmitGiftResponse>;

// POST /api/gift-sender/gifts/{giftId}/photos (multipart: one giftImage) — another photo of the session's own
// gift, at most 3 in all; answers the new photo's quality and how many photos the gift now has.
export const AddGiftPhotoResponse = z.object({
  success: z.literal(true),
  quality: PhotoQuality,
  photoCount: z.number().check(z.int()),
  /** as in SubmitGiftResponse, for the new photo */
  lookalike: z.boolean(),
});
export type AddGiftPhotoResponse = z.infer<typeof AddGiftPhotoResponse>;

export const MessageType = z.enum(['video', 'audio']);
export type MessageType = z.infer<typeof MessageType>;

// POST /api/gift-sender/generate-upload-url
export const GenerateUploadUrlRequest = z.object({
  giftId: GiftId,
  fileType: z.string().check(z.minLength(1), z.maxLength(100)),
  fileName: z.string().check(z.minLength(1), z.maxLength(255)),
  messageType: MessageType,
  /** Size the client is about to send; checked against the plan before any byte moves. */
  fileSize: z.optional(z.number().check(z.int(), z.positive())),
});
export type GenerateUploadUrlRequest = z.infer<typeof GenerateUploadUrlRequest>;
export const GenerateUploadUrlResponse = z.object({
  success: z.literal(true),
  uploadUrl: z.string(),
  publicUrl: z.string(),
  filePath: z.string(),
});
export type GenerateUploadUrlResponse = z.infer<typeof GenerateUploadUrlResponse>;

// POST /api/gift-sender/confirm-upload
export const ConfirmUploadRequest = z.object({
  giftId: GiftId,
  publicUrl: z.string(),
  messageType: MessageType,
  filePath: z.string().check(z.minLength(1)),
});
export type ConfirmUploadRequest = z.infer<typeof ConfirmUploadRequest>;

// POST /api/gift-sender/save-text-message (the Text tab)
export const SaveTextMessageRequest = z.object({
  giftId: GiftId,
  text: z.string().check(z.trim(), z.minLength(1, { error: texts.sender.messageRequired }), z.maxLength(TEXT_MESSAGE_MAX)),
});
export type SaveTextMessageRequest = z.infer<typeof SaveTextMessageRequest>;

export const GiftStatus = z.enum(['draft', 'message_uploaded', 'active']);
export type GiftStatus = z.infer<typeof GiftStatus>;

/**
 * none: no message yet (or a text); processing: the uploaded file is being turned into a rendition every phone
 * plays (not revealable until ready); ready; failed: the file could not be read (messageError says why), upload
 * again.
 */
export const MessageState = z.enum(['none', 'processing', 'ready', 'failed']);
export type MessageState = z.infer<typeof MessageState>;

// GET /api/gift-sender/gifts/{giftId}: the checkout summary, for the session's own gift only
export const GiftSummary = z.object({
  giftId: GiftId,
  status: GiftStatus,
  recipientName: z.string(),
  recipientEmail: z.nullable(z.string()),
  occasion: z.string(),
  messageType: z.nullable(z.enum(['video', 'audio', 'text'])),
  /** Whether the uploaded message is still being made playable everywhere (not revealable until ready). */
  messageState: MessageState,
  giftImageUrl: z.nullable(z.string()),
  plan: z.object({
    id: z.enum(PLAN_IDS),
    name: z.string(),
    price: z.string(),
    currency: z.string(),
    amountMinor: z.number().check(z.int()),
    validity: z.string(),
  }),
  paidAt: z.nullable(z.string()),
  /** When the recipient first opened it (null: not yet): the share page offers no "tell me when it's opened" then. */
  firstOpenedAt: z.optional(z.nullable(z.string())),
  /** The gift's 8-digit backup code (decision 039), for a paid gift only; only its sender ever sees it. */
  backupCode: z.nullable(z.string().check(z.regex(/^\d{8}$/))),
});
export type GiftSummary = z.infer<typeof GiftSummary>;
export const GiftSummaryResponse = z.object({ success: z.literal(true), gift: GiftSummary });
