/**
 * The merchant API (issue 39, decision 058): a shop creates gifts for the orders it ships with an API key, the buyer
 * records the message through a record link, the shop hears of each step by signed webhooks. Staff create merchants
 * and their keys in the console.
 */
import * as z from 'zod/mini';
import { GiftId } from './common.ts';
import { PLAN_IDS } from './plans.ts';
import { TEXT_MESSAGE_MAX } from './constants.ts';
import { PhotoQuality } from './sender.ts';
import { StaffReason } from './staff.ts';

/** Every API key starts so: a leaked key is recognisable (secret scanners, logs). */
export const MERCHANT_KEY_PREFIX = 'gl_live_';
/** The random part of a key: 32 base62 characters, about 190 bits. */
export const MERCHANT_KEY_RANDOM_CHARS = 32;
/** Catalogue photos per gift. */
export const MERCHANT_MAX_PRODUCT_IMAGES = 4;
export const ORDER_ID_MAX = 100;
export const IDEMPOTENCY_KEY_MAX = 200;
/** The webhook's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'GiftLens-Signature';
/** A webhook is retried with back-off for this long after it was first due. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const MERCHANT_GIFT_STATUSES = ['awaiting_message', 'ready', 'sent', 'opened', 'cancelled'] as const;
export type MerchantGiftStatus = (typeof MERCHANT_GIFT_STATUSES)[number];

export const WEBHOOK_TYPES = ['gift.message_ready', 'gift.sent', 'gift.opened', 'gift.reaction_ready', 'gift.cancelled'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** `now`, `on_delivery` (POST …/delivered), or an ISO instant. */
export type MerchantRelease = 'now' | 'on_delivery' | { at: string };

export const merchantApi = {
  gifts: '/api/merchant/v1/gifts',
  gift: (giftId: string) => `/api/merchant/v1/gifts/${giftId}`,
  cancel: (giftId: string) => `/api/merchant/v1/gifts/${giftId}/cancel`,
  delivered: (giftId: string) => `/api/merchant/v1/gifts/${giftId}/delivered`,
  card: (giftId: string) => `/api/merchant/v1/gifts/${giftId}/card.pdf`,
} as const;

/** The buyer's record link (no account): the page is `/record/{token}`. */
export const recordApi = {
  record: (token: string) => `/api/record/${token}`,
  text: (token: string) => `/api/record/${token}/text`,
  uploadUrl: (token: string) => `/api/record/${token}/upload-url`,
  confirm: (token: string) => `/api/record/${token}/confirm`,
} as const;

/** The brand of a gift (a merchant's; null for a sender's own), for the recipient's greeting, instructions and message pages. */
export const giftBrandApi = (giftId: string) => `/api/verification-recipient/brand/${giftId}`;

export const staffMerchantApi = {
  merchants: '/api/staff/merchants',
  merchant: (id: string) => `/api/staff/merchants/${id}`,
  rotateKey: (id: string) => `/api/staff/merchants/${id}/keys/rotate`,
  revokeKey: (id: string) => `/api/staff/merchants/${id}/keys/revoke`,
  rotateWebhookSecret: (id: string) => `/api/staff/merchants/${id}/webhook-secret/rotate`,
  logo: (id: string) => `/api/staff/merchants/${id}/logo`,
  usage: (id: string) => `/api/staff/merchants/${id}/usage`,
  usageCsv: (id: string) => `/api/staff/merchants/${id}/usage.csv`,
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
  multipartRequired: 'Send the gift as multipart/form-data (fields and productImage files).',
  idempotencyKeyInvalid: `Idempotency-Key can be 1 to ${IDEMPOTENCY_KEY_MAX} visible characters.`,
  cancelled: 'This gift was cancelled.',
  notOnDelivery: 'This gift is not released on delivery: it was created with another release.',
  cardNotBuilt: 'The printable card is not built yet on this server (issue 40); the recordUrl and backupCode work meanwhile.',
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

export const MerchantName = z.string({ error: merchantTexts.merchantNameInvalid }).check(
  z.trim(),
  z.minLength(1, { error: merchantTexts.merchantNameInvalid }),
  z.maxLength(80, { error: merchantTexts.merchantNameInvalid }),
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  z.regex(/^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/, { error: merchantTexts.merchantNameInvalid }),
);
export const WebhookUrl = z.string({ error: merchantTexts.webhookUrlInvalid }).check(z.trim(), z.maxLength(2000, { error: merchantTexts.webhookUrlInvalid }));
export const BrandColour = z.string({ error: merchantTexts.colourInvalid }).check(z.regex(/^#[0-9a-fA-F]{6}$/, { error: merchantTexts.colourInvalid }));

// ---------- staff ----------

// POST /api/staff/merchants
export const StaffCreateMerchantRequest = z.object({ name: MerchantName, webhookUrl: WebhookUrl, reason: StaffReason });
export type StaffCreateMerchantRequest = z.infer<typeof StaffCreateMerchantRequest>;
export const StaffCreateMerchantResponse = z.object({
  merchant: z.object({ id: z.string(), name: z.string() }),
  /** Shown once: only its hash is kept. */
  apiKey: z.string(),
  /** Shown once (kept sealed to sign webhooks). */
  webhookSecret: z.string(),
});
export type StaffCreateMerchantResponse = z.infer<typeof StaffCreateMerchantResponse>;

// PATCH /api/staff/merchants/{id}
export const StaffUpdateMerchantRequest = z.object({
  displayName: z.optional(z.nullable(MerchantName)),
  brandColour: z.optional(z.nullable(BrandColour)),
  webhookUrl: z.optional(WebhookUrl),
  reason: StaffReason,
});
export type StaffUpdateMerchantRequest = z.infer<typeof StaffUpdateMerchantRequest>;

export const StaffMerchant = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.nullable(z.string()),
  brandColour: z.nullable(z.string()),
  logoUrl: z.nullable(z.string()),
  webhookUrl: z.string(),
  /** The active key's first characters (gl_live_ and 4 more), or null when every key is revoked. */
  keyPrefix: z.nullable(z.string()),
  createdAt: z.string(),
});
export type StaffMerchant = z.infer<typeof StaffMerchant>;

export const MerchantUsageMonth = z.object({ month: z.string(), created: z.number(), opened: z.number() });
export type MerchantUsageMonth = z.infer<typeof MerchantUsageMonth>;

// ---------- the merchant API ----------

export const CreateMerchantGiftResponse = z.object({
  giftId: GiftId,
  recordUrl: z.string(),
  backupCode: z.string(),
  cardUrl: z.string(),
  status: z.enum(MERCHANT_GIFT_STATUSES),
  quality: PhotoQuality,
  lookalike: z.boolean(),
});
export type CreateMerchantGiftResponse = z.infer<typeof CreateMerchantGiftResponse>;

export const MerchantGiftStatusResponse = z.object({
  giftId: GiftId,
  orderId: z.string(),
  status: z.enum(MERCHANT_GIFT_STATUSES),
  createdAt: z.string(),
  messageReadyAt: z.nullable(z.string()),
  openedAt: z.nullable(z.string()),
  reactionReady: z.boolean(),
});
export type MerchantGiftStatusResponse = z.infer<typeof MerchantGiftStatusResponse>;

export const MerchantGiftsResponse = z.object({ gifts: z.array(MerchantGiftStatusResponse) });
export type MerchantGiftsResponse = z.infer<typeof MerchantGiftsResponse>;

export const WebhookBody = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_TYPES),
  giftId: GiftId,
  orderId: z.string(),
  at: z.string(),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

// ---------- the record link ----------

/** A brand shown to the buyer and the recipient: its name, logo (a signed media URL) and colour. */
export const Brand = z.object({ name: z.string(), logoUrl: z.nullable(z.string()), colour: z.nullable(z.string()) });
export type Brand = z.infer<typeof Brand>;

export const GiftBrandResponse = z.object({
  success: z.literal(true),
  brand: z.nullable(Brand),
  /** The buyer's first name ("A message from Priya, with your order from Shop"); null for a sender's own gift or none given. */
  senderName: z.nullable(z.string()),
});
export type GiftBrandResponse = z.infer<typeof GiftBrandResponse>;

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
