/**
 * The buyer's record link of a merchant's gift and the merchant API's texts (issue 39, decision 058): apart from
 * merchants.ts so the record page loads only these.
 */
import * as z from 'zod/mini';
import { GiftId } from './common.ts';
import { GIFT_IMAGE_MAX_BYTES, TEXT_MESSAGE_MAX } from './constants.ts';
import { Brand } from './brand.ts';
import { PLAN_IDS } from './plans.ts';

/** Catalogue photos per gift. */
export const MERCHANT_MAX_PRODUCT_IMAGES = 4;
export const ORDER_ID_MAX = 100;
export const IDEMPOTENCY_KEY_MAX = 200;

/** The buyer's record link (no account): the page is `/record/{token}`. */
export const recordApi = {
  record: (token: string) => `/api/record/${token}`,
  text: (token: string) => `/api/record/${token}/text`,
  uploadUrl: (token: string) => `/api/record/${token}/upload-url`,
  confirm: (token: string) => `/api/record/${token}/confirm`,
} as const;

export const merchantTexts = {
  keyMissing: 'Send your API key as "Authorization: Bearer gl_live_…".',
  keyInvalid: 'This API key is not valid: it is wrong, revoked or replaced.',
  giftNotFound: 'No gift of yours has this id.',
  fieldRequired: (field: string) => `${field} is required.`,
  fieldTooLong: (field: string, max: number) => `${field} can be at most ${max} characters.`,
  fieldInvalid: (field: string, why: string) => `${field} is not valid: ${why}`,
  imageRequired: `productImage is required: send 1 to ${MERCHANT_MAX_PRODUCT_IMAGES} catalogue photos.`,
  tooManyImages: `productImage: at most ${MERCHANT_MAX_PRODUCT_IMAGES} photos.`,
  imageTooLarge: `productImage: each photo can be up to ${GIFT_IMAGE_MAX_BYTES / 1024 / 1024} MB.`,
  /** A photo's own refusal (type, pixels, unreadable), said of the field. */
  imageRefused: (why: string) => `productImage: ${why}`,
  multipartRequired: 'Send the gift as multipart/form-data (fields and productImage files).',
  idempotencyKeyInvalid: `Idempotency-Key can be 1 to ${IDEMPOTENCY_KEY_MAX} visible characters.`,
  cancelled: 'This gift was cancelled.',
  whatsappOff: 'recipientPhone: WhatsApp is not available on this server; give recipientEmail instead.',
  notOnDelivery: 'This gift is not released on delivery: it was created with another release.',
  recordLinkInvalid: 'This record link is not valid or the gift no longer exists.',
  recordClosed: 'The recipient has opened this gift already, so its message can no longer be changed.',
  merchantNotFound: 'No merchant has this id.',
  merchantNameInvalid: 'name: 1 to 80 characters, no control characters.',
  webhookUrlInvalid: 'webhookUrl must be an https:// URL of a public host (http only to hosts in WEBHOOK_ALLOW_HTTP_HOSTS).',
  colourInvalid: 'brandColour must be a colour like #1a2b3c.',
  logoInvalid: 'logo must be a PNG, JPEG or WebP image.',
} as const;

/** The texts the schemas below refuse with (each names its field), for the server's list of user texts. */
export const merchantSchemaTexts = [
  merchantTexts.fieldRequired('text'),
  merchantTexts.fieldTooLong('text', TEXT_MESSAGE_MAX),
  merchantTexts.fieldRequired('fileType'),
  merchantTexts.fieldRequired('messageType'),
  merchantTexts.fieldRequired('filePath'),
];

export const RecordLinkResponse = z.object({
  success: z.literal(true),
  giftId: GiftId,
  recipientName: z.string(),
  occasion: z.string(),
  brand: Brand,
  /** The plan, whose limits the recorder keeps. */
  planId: z.enum(PLAN_IDS),
  messageType: z.nullable(z.enum(['video', 'audio', 'text'])),
  messageState: z.string(),
  /** False once the gift was first opened (the message can no longer change). */
  open: z.boolean(),
});
export type RecordLinkResponse = z.infer<typeof RecordLinkResponse>;

export const RecordTextRequest = z.object({
  text: z.string({ error: merchantTexts.fieldRequired('text') }).check(
    z.trim(),
    z.minLength(1, { error: merchantTexts.fieldRequired('text') }),
    z.maxLength(TEXT_MESSAGE_MAX, { error: merchantTexts.fieldTooLong('text', TEXT_MESSAGE_MAX) }),
  ),
});
export const RecordUploadUrlRequest = z.object({
  fileType: z.string({ error: merchantTexts.fieldRequired('fileType') }),
  fileSize: z.optional(z.number().check(z.int(), z.gte(0))),
  messageType: z.enum(['video', 'audio'], { error: merchantTexts.fieldRequired('messageType') }),
});
export const RecordConfirmRequest = z.object({
  filePath: z.string({ error: merchantTexts.fieldRequired('filePath') }),
  messageType: z.enum(['video', 'audio'], { error: merchantTexts.fieldRequired('messageType') }),
});
