/**
 * The merchant API (issue 39, decision 058): a shop creates gifts for the orders it ships with an API key, the buyer
 * records the message through a record link, the shop hears of each step by signed webhooks. Staff create merchants
 * and their keys in the console.
 */
import * as z from 'zod/mini';
import { GiftId } from './common.ts';
import { PhotoQuality } from './sender.ts';
import { StaffReason } from './staff.ts';

/** Every API key starts so: a leaked key is recognisable (secret scanners, logs). */
export const MERCHANT_KEY_PREFIX = 'gl_live_';
/** The random part of a key: 32 base62 characters, about 190 bits. */
export const MERCHANT_KEY_RANDOM_CHARS = 32;
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

export { Brand, GiftBrandResponse, giftBrandApi } from './brand.ts';
export * from './record-link.ts';
import { merchantTexts } from './record-link.ts';

export const merchantApi = {
  gifts: '/api/merchant/v1/gifts',
  gift: (giftId: string) => `/api/merchant/v1/gifts/${giftId}`,
  cancel: (giftId: string) => `/api/merchant/v1/gifts/${giftId}/cancel`,
  delivered: (giftId: string) => `/api/merchant/v1/gifts/${giftId}/delivered`,
  card: (giftId: string) => `/api/merchant/v1/gifts/${giftId}/card.pdf`,
} as const;



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

export const StaffMerchantsResponse = z.object({ merchants: z.array(StaffMerchant) });
export type StaffMerchantsResponse = z.infer<typeof StaffMerchantsResponse>;
export const StaffRotateKeyResponse = z.object({ apiKey: z.string(), revoked: z.number() });
export const StaffRevokeKeysResponse = z.object({ revoked: z.number() });
export const StaffRotateSecretResponse = z.object({ webhookSecret: z.string() });

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




