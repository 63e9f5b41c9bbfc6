import { SuccessBody } from '@giftlens/contract/common';
import { type StartSyncedRecordingRequest } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import type * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST start-synced-recording: when the message started playing, so the reaction lines up with it. */
export function startSyncedRecording(body: z.infer<typeof StartSyncedRecordingRequest>) {
  return apiRequest('POST', API.startSyncedRecording, body, {
    fallbackError: texts.recipient.somethingWrong,
    schema: SuccessBody,
  });
}
