import type { MessageType } from '@giftlens/contract/sender';
import type { Selectable } from 'kysely';

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
}
export type UploadIntent = Selectable<UploadIntentsTable>;
