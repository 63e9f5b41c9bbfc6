import type { MessageState } from '@giftlens/contract/my-gifts';
import type { GiftStatus } from '@giftlens/contract/sender';
import type { PlanId } from '@giftlens/contract/plans';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export type GiftMessageType = 'video' | 'audio' | 'text';

export interface GiftsTable {
  /** 128-bit random id, 32 lowercase hex characters. */
  id: string;
  sender_id: string;
  recipient_name: string;
  recipient_email: string | null;
  recipient_phone: string | null;
  occasion: string;
  plan_id: PlanId;
  status: GiftStatus;
  message_type: GiftMessageType | null;
  message_path: string | null;
  message_mime: string | null;
  message_text: string | null;
  message_size: number | null;
  /** none (no message, or text), processing (being made playable everywhere), ready, failed (see message_error). */
  message_state: Generated<MessageState>;
  /** A frame of the video message, shown before play. */
  message_poster_path: string | null;
  message_error: string | null;
  paid_at: string | null;
  scans_used: number;
  /** The first successful reveal (the moment the sender is told), or null. */
  first_opened_at: string | null;
  /** The sealed 8-digit backup code (lib/backup-codes.ts, decision 039); null until paid. */
  backup_code: string | null;
  /** Staff extended the plan's validity to this instant (null: the plan's own end). */
  valid_until_override: string | null;
  /** Reveals staff added beyond the plan's. */
  extra_scans: Generated<number>;
  /** Refunded in full by staff: the gift no longer opens. */
  refunded_at: string | null;
  /** Taken down by staff for abuse: the gift no longer opens, its link says so. */
  taken_down_at: string | null;
  /** The sender turned this gift's reminders off then (issue 40); null: they are on. */
  reminders_off_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}
export type Gift = Selectable<GiftsTable>;
export type NewGift = Insertable<GiftsTable>;

export interface GiftPhotosTable {
  id: string;
  gift_id: string;
  storage_path: string;
  mime: string;
  /** Matcher reference features, filled when the photo is enrolled. */
  features: Buffer | null;
  /** Matcher quality score 0..1, whether the photo is recognisable, and the matcher's advice when it is not. */
  quality: number | null;
  recognisable: number | null;
  quality_message: string | null;
  /** Recognisability rating 1-5 and the comma-separated reasons when it is low (decision 031); NULL before it. */
  rating: number | null;
  quality_reasons: string | null;
  /**
   * The matcher's recipe the features were enrolled by (REFERENCE_RECIPE, decision 053); 0 for features enrolled before
   * it was recorded, and for a photo not enrolled yet. Housekeeping enrols again those of an older recipe.
   */
  features_recipe: ColumnType<number, number | undefined, number>;
  position: number;
  created_at: string;
}
export type GiftPhoto = Selectable<GiftPhotosTable>;
export type NewGiftPhoto = Insertable<GiftPhotosTable>;
