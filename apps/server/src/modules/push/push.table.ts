import type { Selectable } from 'kysely';

/** A browser's push subscription for a signed-in sender (one row per endpoint). */
export interface PushSubscriptionsTable {
  id: string;
  sender_id: string;
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url, as PushSubscription.toJSON() gives them. */
  p256dh: string;
  auth: string;
  created_at: string;
  updated_at: string;
}
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;
