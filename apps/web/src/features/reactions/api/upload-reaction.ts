import { ReactionUploadResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { apiRequest } from '../../../lib/api-client.ts';

export interface ReactionUpload {
  reactionId: string;
  recording: Blob;
  durationSeconds: number;
  mediaEndTime: number;
  syncOffsetMs: number;
}

/** POST upload (multipart): the recorded reaction and its timing against the message. */
export function uploadReaction({ reactionId, recording, durationSeconds, mediaEndTime, syncOffsetMs }: ReactionUpload) {
  const form = new FormData();
  form.append('reactionId', reactionId);
  form.append('recordingQuality', 'high');
  form.append('durationSeconds', String(durationSeconds));
  form.append('mediaEndTime', String(mediaEndTime));
  form.append('syncOffsetMs', String(syncOffsetMs));
  const ext = recording.type.includes('mp4') ? 'mp4' : 'webm';
  form.append('reaction', recording, `reaction.${ext}`);
  return apiRequest('POST', API.reactionUpload, form, { fallbackError: texts.recipient.uploadFailed, schema: ReactionUploadResponse });
}
