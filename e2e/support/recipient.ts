import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, request, type APIRequestContext } from '@playwright/test';
import { ARTIFACTS_DIR } from './paths.ts';

/**
 * A phone photo of the gift as the recipient's page sends it (apps/web/src/camera/scan-photo.ts): fitted into
 * 600x600 and saved as a JPEG of about quality 0.5, made once per run with ffmpeg.
 */
export function compressedScan(photoPath: string): string {
  const dir = join(ARTIFACTS_DIR, 'scans');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${basename(photoPath).replace(/\.[^.]+$/, '')}-600.jpg`);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    photoPath,
    '-vf',
    'scale=600:600:force_original_aspect_ratio=decrease',
    '-q:v',
    '10',
    out,
  ]);
  return out;
}

async function ok(res: Awaited<ReturnType<APIRequestContext['post']>>): Promise<Record<string, unknown>> {
  expect(res.status(), `${res.url()} → ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * The recipient's genuine scan through the gift link's call (POST process-scan/{giftId}) with a real photo of the
 * gift; the real matcher decides. Returns the context holding the reveal grant (dispose it).
 */
export async function scanGift(baseURL: string, giftId: string, photoPath: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const scan = readFileSync(compressedScan(photoPath));
  const res = await ok(
    await api.post(`/api/verification-recipient/process-scan/${giftId}`, {
      multipart: { scan: { name: 'scan.jpg', mimeType: 'image/jpeg', buffer: scan } },
    }),
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
    const consent = await ok(
      await api.post('/api/reactions/play-consent', {
        data: { giftId, mediaDuration: 2, playbackSessionId },
      }),
    );
    expect(consent.allowRecording, JSON.stringify(consent)).toBe(true);
    const reactionId = (consent.data as { id: string }).id;
    await ok(
      await api.post('/api/reactions/consent', {
        data: {
          reactionId,
          consentGranted: true,
          deviceInfo: { userAgent: 'e2e', platform: 'Linux', language: 'en' },
          browserInfo: { cookieEnabled: true, onLine: true },
        },
      }),
    );
    await ok(
      await api.post('/api/reactions/start-synced-recording', {
        data: { reactionId, mediaStartTime: 0, playbackSessionId },
      }),
    );
    await ok(
      await api.post('/api/reactions/upload', {
        multipart: {
          reactionId,
          recordingQuality: 'high',
          durationSeconds: '2',
          mediaEndTime: '2',
          syncOffsetMs: '0',
          reaction: { name: basename(videoPath), mimeType: 'video/mp4', buffer: readFileSync(videoPath) },
        },
      }),
    );
  } finally {
    await api.dispose();
  }
}
