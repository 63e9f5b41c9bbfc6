import { SuccessBody } from '@giftlens/contract/common';
import { RECIPIENT_API, RM, type StartSyncedRecordingRequest } from '@giftlens/contract/recipient';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST start-synced-recording: when the message started playing, so the reaction lines up with it. */
export function startSyncedRecording(body: z.infer<typeof StartSyncedRecordingRequest>) {
  return apiRequest('POST', RECIPIENT_API.startSyncedRecording, body, {
    fallbackError: RM.somethingWrong,
    schema: SuccessBody,
  });
}
