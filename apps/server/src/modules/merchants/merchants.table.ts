import type { Selectable } from 'kysely';

/** A shop that creates gifts through the merchant API (decision 058). */
export interface MerchantsTable {
  id: string;
  name: string;
  /** The brand's name shown to the buyer and the recipient (null: `name`). */
  display_name: string | null;
  brand_colour: string | null;
  /** The brand's logo in media storage (normalised by the server). */
  logo_path: string | null;
  webhook_url: string;
  /** Sealed with the merchant's id (lib/sealed.ts). */
  webhook_secret: string;
  created_at: string;
  updated_at: string;
}
export type Merchant = Selectable<MerchantsTable>;

export interface MerchantApiKeysTable {
  id: string;
  merchant_id: string;
  /** SHA-256 hex of the whole key. */
  key_hash: string;
  /** `gl_live_` and the key's next 4 characters, for staff to tell keys apart. */
  prefix: string;
  revoked_at: string | null;
  created_at: string;
}
export type MerchantApiKey = Selectable<MerchantApiKeysTable>;

export type MerchantReleaseKind = 'now' | 'on_delivery' | 'at';

/** A gift a merchant created: its order, release, and the moments the shop is told of. Outlives the gift. */
export interface MerchantGiftsTable {
  gift_id: string;
  merchant_id: string;
  order_id: string;
  idempotency_key: string | null;
  /** 1 when the look-alike warning was given at creation. */
  lookalike: number;
  /** The recognisability rating given at creation (PhotoQuality JSON). */
  quality: string;
  release: MerchantReleaseKind;
  release_at: string | null;
  /** The shop said the parcel arrived (POST …/delivered). */
  delivered_at: string | null;
  /** The recipient's delivery was created. */
  released_at: string | null;
  message_ready_at: string | null;
  sent_at: string | null;
  opened_at: string | null;
  reaction_ready_at: string | null;
  cancelled_at: string | null;
  created_at: string;
}
export type MerchantGift = Selectable<MerchantGiftsTable>;

export interface MerchantWebhooksTable {
  id: string;
  merchant_id: string;
  gift_id: string;
  type: string;
  /** The exact JSON sent (the signature covers these bytes). */
  body: string;
  delivered_at: string | null;
  created_at: string;
}
export type MerchantWebhook = Selectable<MerchantWebhooksTable>;

export interface MerchantWebhookAttemptsTable {
  id: string;
  webhook_id: string;
  attempt: number;
  status_code: number | null;
  /** The first 300 characters of the answer's body. */
  answer: string | null;
  error: string | null;
  created_at: string;
}
export type MerchantWebhookAttempt = Selectable<MerchantWebhookAttemptsTable>;
