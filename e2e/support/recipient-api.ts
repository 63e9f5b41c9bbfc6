import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, request, type APIRequestContext } from '@playwright/test';
import { SuccessBody } from '@giftlens/contract/common';
import { PlayConsentResponse, ReactionUploadResponse, ScanResponse } from '@giftlens/contract/recipient';
import { expectOk } from './api.ts';
import { madeByFfmpeg } from './ffmpeg.ts';
import { API } from './paths.ts';

// The recipient's calls, exactly as the gift link's pages make them.

/**
 * A phone photo of the gift as the recipient's page sends it (apps/web/src/camera/scan-photo.ts): fitted into
 * 600x600 and saved as a JPEG of about quality 0.5, made once with ffmpeg.
 */
export function compressedScan(photoPath: string): string {
  return madeByFfmpeg('scans', `${basename(photoPath).replace(/\.[^.]+$/, '')}-600.jpg`, [
    '-i',
    photoPath,
    '-vf',
    'scale=600:600:force_original_aspect_ratio=decrease',
    '-q:v',
    '10',
  ]);
}

/**
 * The recipient's genuine scan through the gift link's call (POST process-scan/{giftId}) with a real photo of the
 * gift; the real matcher decides. Returns the context holding the reveal grant (dispose it).
 */
export async function scanGift(baseURL: string, giftId: string, photoPath: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const scan = readFileSync(compressedScan(photoPath));
  const res = await expectOk(
    await api.post(API.processScanDirect(giftId), {
      multipart: { scan: { name: 'scan.jpg', mimeType: 'image/jpeg', buffer: scan } },
    }),
    ScanResponse,
  );
  expect(res.success, `the scan of ${giftId} did not match: ${JSON.stringify(res)}`).toBe(true);
  return api;
}

/**
 * On a Lifetime gift: a genuine scan, then the reaction calls the recipient's page makes (play-consent, consent,
 * start-synced-recording, upload) with `videoPath` as the recording.
 */
export async function recordReaction(
  baseURL: string,
  giftId: string,
  photoPath: string,
  videoPath: string,
): Promise<void> {
  const api = await scanGift(baseURL, giftId, photoPath);
  try {
    const playbackSessionId = `e2e-${Date.now()}`;
    const consent = await expectOk(
      await api.post(API.playConsent, { data: { giftId, mediaDuration: 2, playbackSessionId } }),
      PlayConsentResponse,
    );
    expect(consent.allowRecording, JSON.stringify(consent)).toBe(true);
    const reactionId = consent.data!.id;
    await expectOk(
      await api.post(API.consent, {
        data: {
          reactionId,
          consentGranted: true,
          deviceInfo: { userAgent: 'e2e', platform: 'Linux', language: 'en' },
          browserInfo: { cookieEnabled: true, onLine: true },
        },
      }),
      SuccessBody,
    );
    await expectOk(
      await api.post(API.startSyncedRecording, { data: { reactionId, mediaStartTime: 0, playbackSessionId } }),
      SuccessBody,
    );
    await expectOk(
      await api.post(API.reactionUpload, {
        multipart: {
          reactionId,
          recordingQuality: 'high',
          durationSeconds: '2',
          mediaEndTime: '2',
          syncOffsetMs: '0',
          reaction: { name: basename(videoPath), mimeType: 'video/mp4', buffer: readFileSync(videoPath) },
        },
      }),
      ReactionUploadResponse,
    );
  } finally {
    await api.dispose();
  }
}
