import { texts } from '@giftlens/contract/texts';
import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { createFfmpegProcessor } from '../src/adapters/media-processor.ts';
import { createHousekeepingService } from '../src/modules/housekeeping/housekeeping.service.ts';
import { renditionKeys } from '../src/modules/renditions/renditions.jobs.ts';
import { createGift, generateUploadUrl, payGift, type UploadTarget } from './helpers/flows.ts';
import { describeEachStorage, fetchMedia, it, json, putUpload, signIn, type Harness } from './helpers/harness.ts';
import { multipart } from './helpers/media.ts';
import { activeGift, consentedReaction, directScan, scanPhotos } from './helpers/recipient.ts';
import { downloadStored } from './helpers/stored-media.ts';

// Real ffmpeg (Debian's package; CI installs it): messages in the formats phones and browsers record.
const processor = await createFfmpegProcessor();
if (!processor) throw new Error('These tests need ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg).');

const work = mkdtempSync(path.join(tmpdir(), 'giftlens-renditions-'));
function make(name: string, args: string[]): Buffer {
  const out = path.join(work, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out], { timeout: 60_000 });
  return readFileSync(out);
}
const SOURCES = {
  // Chrome's MediaRecorder: VP9 and Opus in WebM.
  webm: () => make('chrome.webm', ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:v', 'libvpx-vp9', '-b:v', '200k', '-c:a', 'libopus']),
  // A QuickTime movie as older cameras and editors write it: MPEG-4 Part 2 video, PCM sound.
  mov: () => make('camera.mov', ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:v', 'mpeg4', '-c:a', 'pcm_s16le']),
  wav: () => make('voice.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:a', 'pcm_s16le']),
};

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

/** ffprobe's view of a stored file (a local copy of it, from the files or the bucket). */
async function probeStored(h: Harness, key: string) {
  const out = execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', await downloadStored(h, key)]);
  return JSON.parse(out.toString()) as { format: { format_name: string }; streams: { codec_type: string; codec_name: string }[] };
}

/** The top-level MP4 boxes in order: "faststart" means moov comes before mdat. */
function topLevelBoxes(file: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= file.length; ) {
    let size = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(file.readBigUInt64BE(at + 8));
    boxes.push(type);
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

async function upload(h: Harness, cookie: string, giftId: string, data: Buffer, fileName: string, fileType: string, messageType: 'video' | 'audio') {
  const gen = await generateUploadUrl(h, cookie, { giftId, fileType, fileName, messageType, fileSize: data.length });
  expect(gen.statusCode, gen.body).toBe(200);
  const target = json<UploadTarget>(gen);
  const put = await putUpload(h, target.uploadUrl, data, fileType);
  expect(put.statusCode, put.body).toBe(200);
  const confirm = await h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/confirm-upload',
    headers: { cookie },
    payload: { giftId, publicUrl: target.publicUrl, messageType, filePath: target.filePath },
  });
  // The key confirm stored the bytes under: the upload's name with the extension of their sniffed type.
  const key = (await giftRow(h, giftId)).message_path ?? '';
  return { confirm, target, key };
}

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const giftRow = (h: Harness, giftId: string) => h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
const exists = async (h: Harness, key: string) => (await h.media.stat(key)) !== null;

describeEachStorage(
  'messages play on every phone',
  (get) => {
    const cases = [
      { name: 'a WebM (VP9/Opus) video', source: 'webm', fileName: 'message.webm', fileType: 'video/webm', kind: 'video', stored: '.webm', ext: '.mp4', mime: 'video/mp4' },
      { name: 'a QuickTime .mov video', source: 'mov', fileName: 'message.mov', fileType: 'video/quicktime', kind: 'video', stored: '.mov', ext: '.mp4', mime: 'video/mp4' },
      { name: 'a WAV voice message', source: 'wav', fileName: 'voice.wav', fileType: 'audio/wav', kind: 'audio', stored: '.wav', ext: '.m4a', mime: 'audio/mp4' },
    ] as const;

    for (const c of cases) {
      it(`${c.name} becomes H.264/AAC ${c.ext} with the moov atom first, the original removed`, async () => {
        const h = get();
        const { cookie } = await signIn(h);
        const giftId = await createGift(h, cookie);
        const { confirm, target, key } = await upload(h, cookie, giftId, SOURCES[c.source](), c.fileName, c.fileType, c.kind);
        expect(confirm.statusCode, confirm.body).toBe(200);
        // Stored under the upload's name with the extension of what the bytes are.
        expect(key).toBe(target.filePath.replace(/\.upload$/, c.stored));
        expect(await giftRow(h, giftId)).toMatchObject({ message_state: 'processing' });
        expect(await exists(h, target.filePath)).toBe(false);

        expect(await h.jobs.runDue()).toBe(1);
        const gift = await giftRow(h, giftId);
        expect(gift).toMatchObject({ message_state: 'ready', message_mime: c.mime, message_error: null });
        expect(path.extname(gift.message_path!)).toBe(c.ext);
        expect(await exists(h, key)).toBe(false);
        const probe = await probeStored(h, gift.message_path!);
        expect(probe.format.format_name).toContain('mp4');
        const codecs = Object.fromEntries(probe.streams.map((s) => [s.codec_type, s.codec_name]));
        expect(codecs).toEqual(c.kind === 'video' ? { video: 'h264', audio: 'aac' } : { audio: 'aac' });
        const boxes = topLevelBoxes(readFileSync(await downloadStored(h, gift.message_path!)));
        expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
        expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
        expect(gift.message_size).toBe((await h.media.stat(gift.message_path!))?.size);
        if (c.kind === 'video') {
          expect(gift.message_poster_path).toMatch(/\.jpg$/);
          expect((await h.media.readHead(gift.message_poster_path!, 3)).toString('hex')).toBe('ffd8ff');
        } else {
          expect(gift.message_poster_path).toBeNull();
        }
      });
    }

    it('a paid gift is not revealable while its message is processing: the greeting says it is being prepared', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await activeGift(h, cookie, { photo: photos.reference, pay: false });
      await h.jobs.runDue();
      await payGift(h, cookie, giftId);
      // Replaced after payment (allowed until the gift is first opened): processing again.
      const { confirm } = await upload(h, cookie, giftId, SOURCES.webm(), 'again.webm', 'video/webm', 'video');
      expect(confirm.statusCode, confirm.body).toBe(200);
      const greeting = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${giftId}` });
      expect(json(greeting)).toMatchObject({ giftDetails: { isActive: true, preparing: true } });
      const early = await directScan(h, giftId, photos.genuine);
      expect(early.statusCode).toBe(403);
      expect(json(early)).toMatchObject({ code: 'gift_preparing', error: texts.recipient.giftPreparing });

      await h.jobs.runDue();
      const ready = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${giftId}` });
      expect(json(ready)).toMatchObject({ giftDetails: { preparing: false } });
      const scan = await directScan(h, giftId, photos.genuine);
      expect(scan.statusCode, scan.body).toBe(200);
      const message = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/gift-message/${giftId}`, headers: { cookie: String(scan.headers['set-cookie']).split(';')[0] } });
      expect(message.statusCode, message.body).toBe(200);
      const shown = json<{ messageUrl: string; posterUrl: string | null }>(message);
      expect(shown.messageUrl).toMatch(/\.mp4\?exp=/);
      expect(shown.posterUrl).toMatch(/\.jpg\?exp=/);
      // Served from the files or, through a presigned link, from the bucket, as the rendition job stored them.
      const poster = await fetchMedia(h, shown.posterUrl!);
      expect(poster.statusCode).toBe(200);
      expect(poster.headers['content-type']).toBe('image/jpeg');
      expect(poster.rawPayload.subarray(0, 3).toString('hex')).toBe('ffd8ff');
      const video = await fetchMedia(h, shown.messageUrl);
      expect(video.statusCode).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      expect(topLevelBoxes(video.rawPayload)).toContain('moov');

      // Once opened, the message is what was revealed: no more replacing.
      const locked = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/webm', fileName: 'late.webm', messageType: 'video', fileSize: 1000 });
      expect(locked.statusCode).toBe(409);
      expect(json(locked).error).toBe(texts.sender.messageLocked);
    });

    it('a reaction recorded as WebM becomes an MP4 with a poster before the sender sees it', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await activeGift(h, cookie, { planId: 'lifetime_us', photo: photos.reference, pay: false, recipientName: 'Maya' });
      await h.jobs.runDue();
      await payGift(h, cookie, giftId);
      const grant = String((await directScan(h, giftId, photos.genuine)).headers['set-cookie']).split(';')[0]!;
      const post = (url: string, payload: object, headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url, payload, headers });
      const reactionId = await consentedReaction(h, giftId, grant);
      expect((await post('/api/reactions/start-synced-recording', { reactionId, mediaStartTime: Date.now(), playbackSessionId: 'playback-session-1' })).statusCode).toBe(200);
      const body = multipart(
        { reactionId, recordingQuality: 'high', durationSeconds: '2', mediaEndTime: '2', syncOffsetMs: '0' },
        [{ name: 'reaction', filename: 'reaction.webm', type: 'video/webm', data: SOURCES.webm() }],
      );
      const up = await h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: body.headers, payload: body.payload });
      expect(up.statusCode, up.body).toBe(200);
      const before = await h.db.selectFrom('reactions').selectAll().where('id', '=', reactionId).executeTakeFirstOrThrow();
      expect(before).toMatchObject({ file_state: 'processing', file_mime: 'video/webm' });
      const listed = MyGiftsResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } })));
      expect(listed.gifts[0]?.reaction).toBeNull();
      expect(listed.gifts[0]?.reactionState).toBe('processing');
      expect(listed.gifts[0]?.downloads.reaction).toBeNull();
      // The sender is told when the reaction can be watched, not while it is still being converted.
      const reactionNotice = () => h.db.selectFrom('jobs').select(['status']).where('key', '=', `notice:reaction:${giftId}`).execute();
      expect(await reactionNotice()).toEqual([]);

      await h.jobs.runDue();
      expect(await reactionNotice()).toEqual([{ status: 'done' }]);
      const after = await h.db.selectFrom('reactions').selectAll().where('id', '=', reactionId).executeTakeFirstOrThrow();
      expect(after).toMatchObject({ file_state: 'ready', file_mime: 'video/mp4' });
      expect(after.file_path).toMatch(/\.mp4$/);
      expect(after.poster_path).toMatch(/\.jpg$/);
      expect(await exists(h, before.file_path!)).toBe(false);
      const codecs = Object.fromEntries((await probeStored(h, after.file_path!)).streams.map((s) => [s.codec_type, s.codec_name]));
      expect(codecs).toEqual({ video: 'h264', audio: 'aac' });
      const shown = MyGiftsResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } })));
      expect(shown.gifts[0]?.reaction).toMatchObject({ mime: 'video/mp4' });
      expect(shown.gifts[0]?.reactionState).toBe('ready');
      expect(shown.gifts[0]?.reaction?.posterUrl).toMatch(/\.jpg\?exp=/);
      // Its download is named for the person who recorded it.
      const download = await fetchMedia(h, shown.gifts[0]!.downloads.reaction!);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toBe(`attachment; filename="Maya's reaction.mp4"`);
    });

    it('what a killed render attempt stored goes with housekeeping once its job ended 6 hours ago; what rows name stays', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const { confirm, key } = await upload(h, cookie, giftId, SOURCES.mov(), 'message.mov', 'video/quicktime', 'video');
      expect(confirm.statusCode, confirm.body).toBe(200);
      const job = await h.db.selectFrom('jobs').selectAll().where('key', 'like', `media:${giftId}:%`).executeTakeFirstOrThrow();
      // Attempt 1 was killed after storing its rendition and poster: its claim ran out, its files stayed.
      const killed = renditionKeys(key, job.id, 1);
      for (const k of killed.slice(0, 2)) await h.media.put(k, Buffer.from(`left by attempt 1: ${k}`));
      await h.db
        .updateTable('jobs')
        .set({ status: 'running', attempts: 1, locked_until: new Date(h.clock.now().getTime() - 1000).toISOString() })
        .where('id', '=', job.id)
        .execute();
      expect(await h.jobs.runDue()).toBe(1);
      const gift = await giftRow(h, giftId);
      const [video, poster] = renditionKeys(key, job.id, 2);
      expect(gift).toMatchObject({ message_state: 'ready', message_path: video, message_poster_path: poster });
      // The original as a kill between the swap and its removal leaves it: no row names it any more.
      await h.media.put(key, SOURCES.mov());
      const housekeeping = createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log: quietLog });

      // The job ended a moment ago: nothing of it is touched yet.
      expect((await housekeeping.run()).renderLeftovers).toBe(0);
      for (const k of [...killed.slice(0, 2), key]) expect(await exists(h, k), k).toBe(true);

      h.clock.advance(6 * 3600_000 + 60_000);
      const sweptAt = async () =>
        (await h.db.selectFrom('jobs').select('leftovers_swept_at').where('id', '=', job.id).executeTakeFirstOrThrow()).leftovers_swept_at;
      // A file that will not go: the others go, and the job stays to be looked at again.
      const stuck = killed[0]!;
      const failing = createHousekeepingService({
        db: h.db,
        media: { ...h.media, delete: (k) => (k === stuck ? Promise.reject(new Error('disk says no')) : h.media.delete(k)) },
        clock: h.clock,
        log: quietLog,
      });
      expect(await failing.run()).toMatchObject({ renderLeftovers: 2, filesFailed: 1 });
      expect(await sweptAt()).toBeNull();
      const report = await housekeeping.run();
      // Of the 3 keys attempt 1 may have written (video, poster, voice) the 2 there, and the original (the one left
      // by the failing run now); the rendition and poster in use stay.
      expect(report).toMatchObject({ renderLeftovers: 1, filesFailed: 0 });
      for (const k of [...killed, key]) expect(await exists(h, k), k).toBe(false);
      expect(await exists(h, video!)).toBe(true);
      expect(await exists(h, poster!)).toBe(true);
      expect((await housekeeping.run()).renderLeftovers).toBe(0);
      // Looked at once: the job is marked and later runs do not walk it again.
      expect(await sweptAt()).toBe(h.clock.now().toISOString());
    });

    it('a corrupt video is refused with a clear message and nothing is kept', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const webm = SOURCES.webm();
      // A real WebM header (so the type sniffs right) followed by garbage.
      const corrupt = Buffer.concat([webm.subarray(0, 64), Buffer.alloc(20_000, 0x5a)]);
      const { confirm, target } = await upload(h, cookie, giftId, corrupt, 'broken.webm', 'video/webm', 'video');
      expect(confirm.statusCode).toBe(415);
      expect(json(confirm)).toMatchObject({ success: false, code: 'message_unreadable', error: texts.sender.messageUnreadable });
      expect(await exists(h, target.filePath)).toBe(false);
      expect(await giftRow(h, giftId)).toMatchObject({ status: 'draft', message_path: null, message_state: 'none' });
      expect(await h.db.selectFrom('jobs').select('id').where('key', 'like', `media:${giftId}:%`).execute()).toEqual([]);
    });
  },
  { mediaProcessor: processor },
);
