import type { Generated, Selectable } from 'kysely';

export type ReactionStatus = 'pending' | 'consented' | 'declined' | 'recording' | 'uploaded';

export interface ReactionsTable {
  /** 128-bit random id: with a valid reveal grant at creation, it is the capability for the later calls. */
  id: string;
  /** Unique: one reaction per gift. */
  gift_id: string;
  status: ReactionStatus;
  /** 1 granted, 0 declined, null not asked yet. */
  consent_granted: number | null;
  consented_at: string | null;
  /** JSON of the browser's deviceInfo / browserInfo. */
  device_info: string | null;
  browser_info: string | null;
  playback_session_id: string | null;
  media_duration: number | null;
  media_start_time: number | null;
  media_end_time: number | null;
  duration_seconds: number | null;
  sync_offset_ms: number | null;
  recording_quality: string | null;
  file_path: string | null;
  file_mime: string | null;
  file_size: number | null;
  /** processing while the recording is turned into MP4; ready once it plays everywhere. */
  file_state: Generated<'processing' | 'ready' | 'failed'>;
  poster_path: string | null;
  uploaded_at: string | null;
  created_at: string;
  updated_at: string;
}
export type Reaction = Selectable<ReactionsTable>;
