import type { MessageType } from '@giftlens/contract/sender';
import type { Generated, Insertable, Selectable } from 'kysely';

export type UploadIntentStatus = 'pending' | 'uploaded' | 'confirmed';

export interface UploadIntentsTable {
  /** Random token that names the PUT target (/api/uploads/<id>). */
  id: string;
  gift_id: string;
  message_type: MessageType;
  file_path: string;
  declared_type: string;
  max_bytes: number;
  status: UploadIntentStatus;
  size: number | null;
  expires_at: string;
  created_at: string;
  /** Made through a contributor's link (group gifts): their invitation; null for the organizer's own message. */
  invitation_id: Generated<string | null>;
}
export type UploadIntent = Selectable<UploadIntentsTable>;
export type NewUploadIntent = Insertable<UploadIntentsTable>;
