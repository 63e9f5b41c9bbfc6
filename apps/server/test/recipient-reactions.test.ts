import { type PlayConsentResponse } from '@giftlens/contract/recipient';
import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { texts } from '@giftlens/contract/texts';
import { readFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { describeEachDatabase, describeEachStorage, fetchMedia, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { multipart, tinyMp4 } from './helpers/media.ts';
import { activeGift, directScan, REACTION_WEBM, revealCookie, scanPhotos } from './helpers/recipient.ts';
import { storedKeys } from './helpers/stored-media.ts';

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

const DEVICE = {
  deviceInfo: { userAgent: 'Mozilla/5.0 (test)', platform: 'Linux', language: 'en-GB' },
  browserInfo: { cookieEnabled: true, onLine: true },
};

function playConsent(h: Harness, giftId: string, cookie?: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/reactions/play-consent',
    headers: cookie ? { cookie } : {},
    payload: { giftId, recipientName: 'Maya', mediaDuration: 12, playbackSessionId: 'playback-session-1' },
  });
}

function upload(h: Harness, reactionId: string, data: Buffer, type = 'video/webm') {
  const body = multipart(
    { reactionId, recordingQuality: 'high', durationSeconds: '13', mediaEndTime: '12.5', syncOffsetMs: '40' },
    [{ name: 'reaction', filename: 'reaction.webm', type, data }],
  );
  return h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: body.headers, payload: body.payload });
}

const post = (h: Harness, url: string, payload: Record<string, unknown>) => h.app.inject({ method: 'POST', url, payload });

/** The gift's stored reaction files, on local files or in the bucket. */
const reactionFiles = (h: Harness, giftId: string) => storedKeys(h, `reactions/${giftId}`);

describeEachStorage('reactions: Lifetime only, with consent, one per gift', (get) => {
  let sender: string;
  let lifetime: string;
  let grant: string;

  beforeAll(async () => {
    const h = get();
    sender = (await signIn(h, uniqueEmail('sender'))).cookie;
    lifetime = await activeGift(h, sender, { planId: 'lifetime_us', photo: photos.reference, recipientEmail: uniqueEmail('r') });
    grant = revealCookie(await directScan(h, lifetime, photos.genuine), lifetime) ?? '';
  });

  it('play-consent needs a reveal grant; other plans are told reactions are Lifetime-only', async () => {
    const h = get();
    const none = await playConsent(h, lifetime);
    expect(none.statusCode).toBe(403);
    expect(json(none).error).toBe(texts.recipient.revealRequired);

    const premium = await activeGift(h, sender, { photo: photos.reference, recipientEmail: uniqueEmail('p') });
    const premiumGrant = revealCookie(await directScan(h, premium, photos.genuine), premium) ?? '';
    const refused = json<PlayConsentResponse>(await playConsent(h, premium, premiumGrant));
    expect(refused).toEqual({ success: true, allowRecording: false, message: texts.recipient.reactionsNotAllowed, data: null });
  });

  it('"Just Play": declining records nothing, and the recording cannot start', async () => {
    const h = get();
    const res = json<PlayConsentResponse>(await playConsent(h, lifetime, grant));
    expect(res.allowRecording).toBe(true);
    const id = res.data?.id ?? '';
    expect((await post(h, '/api/reactions/consent', { reactionId: id, consentGranted: false, ...DEVICE })).statusCode).toBe(200);
    const start = await post(h, '/api/reactions/start-synced-recording', { reactionId: id, mediaStartTime: 1, playbackSessionId: 'playback-session-1' });
    expect(start.statusCode).toBe(403);
    expect((await upload(h, id, readFileSync(REACTION_WEBM))).statusCode).toBe(403);
    expect(await reactionFiles(h, lifetime)).toEqual([]);
    const row = await h.db.selectFrom('reactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'declined', consent_granted: 0, file_path: null });
  });

  it('a reset by the next play-consent retires the earlier reaction id', async () => {
    const h = get();
    const first = json<PlayConsentResponse>(await playConsent(h, lifetime, grant)).data?.id ?? '';
    expect((await post(h, '/api/reactions/consent', { reactionId: first, consentGranted: false, ...DEVICE })).statusCode).toBe(200);
    // The id was issued under an earlier grant: a reset must not renew its 2-hour window.
    const second = json<PlayConsentResponse>(await playConsent(h, lifetime, grant)).data?.id ?? '';
    expect(second).not.toBe('');
    expect(second).not.toBe(first);
    expect((await post(h, '/api/reactions/consent', { reactionId: first, consentGranted: true, ...DEVICE })).statusCode).toBe(404);
    expect((await post(h, '/api/reactions/consent', { reactionId: second, consentGranted: false, ...DEVICE })).statusCode).toBe(200);
  });

  it('records a consented reaction once; a second upload or reaction is refused', async () => {
    const h = get();
    const res = json<PlayConsentResponse>(await playConsent(h, lifetime, grant));
    expect(res.allowRecording).toBe(true);
    const id = res.data?.id ?? '';
    expect((await post(h, '/api/reactions/consent', { reactionId: id, consentGranted: true, ...DEVICE })).statusCode).toBe(200);
    const started = await post(h, '/api/reactions/start-synced-recording', { reactionId: id, mediaStartTime: 1732170000000, playbackSessionId: 'playback-session-1' });
    expect(started.statusCode).toBe(200);

    // The bytes decide the type: text labelled as webm is refused and leaves nothing behind.
    const fake = await upload(h, id, Buffer.from('this is not a video'.repeat(50)));
    expect(fake.statusCode).toBe(415);
    expect(await reactionFiles(h, lifetime)).toEqual([]);

    const ok = await upload(h, id, readFileSync(REACTION_WEBM));
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toMatchObject({ success: true });
    const row = await h.db.selectFrom('reactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'uploaded', consent_granted: 1, file_mime: 'video/webm', duration_seconds: 13, sync_offset_ms: 40 });
    expect(Number(row.media_start_time)).toBe(1732170000000);
    expect(Number(row.media_end_time)).toBe(12.5);
    expect(JSON.parse(row.device_info ?? '{}')).toEqual(DEVICE.deviceInfo);
    expect(await reactionFiles(h, lifetime)).toEqual([row.file_path]);
    // The sender watches the very bytes recorded (on S3, through a presigned link to the bucket).
    const mine = MyGiftsResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie: sender } })));
    const shown = mine.gifts.find((g) => g.id === lifetime)?.reaction;
    expect(shown?.mime).toBe('video/webm');
    const served = await fetchMedia(h, shown?.url ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(readFileSync(REACTION_WEBM))).toBe(true);

    const second = await upload(h, id, tinyMp4(), 'video/mp4');
    expect(second.statusCode).toBe(409);
    expect(json(second).error).toBe(texts.recipient.reactionExists);
    expect(await reactionFiles(h, lifetime)).toHaveLength(1);

    const again = json<PlayConsentResponse>(await playConsent(h, lifetime, grant));
    expect(again).toEqual({ success: true, allowRecording: false, message: texts.recipient.alreadyReacted, data: null });
    expect((await post(h, '/api/reactions/consent', { reactionId: id, consentGranted: true, ...DEVICE })).statusCode).toBe(409);

    const message = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/gift-message/${lifetime}`, headers: { cookie: grant } });
    expect(json(message)).toMatchObject({ reactionsEnabled: true, hasReaction: true, planDetails: { planName: 'Lifetime' } });
    const count = await h.db.selectFrom('reactions').select((eb) => eb.fn.countAll().as('n')).where('gift_id', '=', lifetime).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('the database itself refuses a second reaction row for a gift', async () => {
    const h = get();
    const now = new Date().toISOString();
    await expect(
      h.db.insertInto('reactions').values({
        id: 'f'.repeat(32), gift_id: lifetime, status: 'pending', consent_granted: null, consented_at: null,
        device_info: null, browser_info: null, playback_session_id: null, media_duration: null,
        media_start_time: null, media_end_time: null, duration_seconds: null, sync_offset_ms: null,
        recording_quality: null, file_path: null, file_mime: null, file_size: null, uploaded_at: null,
        created_at: now, updated_at: now,
      }).execute(),
    ).rejects.toThrow();
  });

  it('unknown reaction ids are 404', async () => {
    const h = get();
    const res = await post(h, '/api/reactions/consent', { reactionId: 'a'.repeat(32), consentGranted: true, ...DEVICE });
    expect(res.statusCode).toBe(404);
  });
});

describeEachDatabase(
  'reactions: rate limited per client',
  (get) => {
    it('the reaction calls answer 429 once a client passes the limit', async () => {
      const h = get();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await post(h, '/api/reactions/consent', { reactionId: 'a'.repeat(32), consentGranted: true, ...DEVICE })).statusCode);
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
      // The upload (read to disk before its id is checked) has its own count.
      const uploads: number[] = [];
      for (let i = 0; i < 4; i++) uploads.push((await upload(h, 'a'.repeat(32), readFileSync(REACTION_WEBM))).statusCode);
      expect(uploads).toEqual([404, 404, 404, 429]);
    });
  },
  { reactionRateLimit: { max: 3, timeWindow: 60_000 } },
);
