import { MEDIA_LIMITS } from '@giftlens/contract/constants';
import { recordingLength, texts } from '@giftlens/contract/texts';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { formatOfType } from '../src/adapters/media-formats.ts';
import { createFfmpegProcessor, MediaInterruptedError, MediaTooCostlyError, UnreadableMediaError } from '../src/adapters/media-processor.ts';
import { createGift, GIFT_FIELDS, generateUploadUrl, payGift, submitGift, type UploadTarget } from './helpers/flows.ts';
import { describeEachDatabase, it, json, putUpload, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import {
  behindId3,
  browserWebm,
  concatOf,
  dataUriPlaylist,
  eightKFrame,
  fifteenMinuteStill,
  hiddenEightKStream,
  highFrameRate,
  hugeCoverFlac,
  hugePng,
  playlistOf,
  serverSecretFile,
} from './helpers/hostile-media.ts';
import { giftPhoto, multipart } from './helpers/media.ts';
import { activeGift, consentedReaction, directScan, revealCookie, scanPhotos } from './helpers/recipient.ts';
import { storedKeys } from './helpers/stored-media.ts';

const processor = await createFfmpegProcessor();
if (!processor) throw new Error('These tests need ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg).');
const work = mkdtempSync(path.join(tmpdir(), 'giftlens-media-gate-'));
const MP3 = formatOfType('audio/mpeg')!;
const WEBM = formatOfType('video/webm')!;

describe('ffprobe and ffmpeg open an upload only as its sniffed type, and only as one local file', () => {
  it('an HLS playlist behind an ID3 tag, named .m3u8, is read as MP3 and refused: the server file it names is never read', async () => {
    const secret = serverSecretFile();
    const attack = path.join(work, 'x.m3u8');
    writeFileSync(attack, behindId3(playlistOf(secret)));
    // The attack is real: opened the way uploads were opened before (by its name), ffprobe follows it to the file.
    const unpinned = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name:stream=codec_name', '-of', 'csv=p=0', attack]).toString();
    expect(unpinned).toContain('hls');
    expect(unpinned).toContain('aac');
    await expect(processor.probe(attack, MP3)).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(processor.render(attack, MP3, 'audio', path.join(work, 'out-hls'))).rejects.toBeInstanceOf(UnreadableMediaError);
  });

  it('the length and frame rate come from the packets: a browser WebM with no duration in its header is measured', async () => {
    const file = path.join(work, 'browser.webm');
    writeFileSync(file, browserWebm());
    const probe = await processor.probe(file, WEBM);
    expect(probe.durationSeconds).toBeGreaterThan(1.9);
    expect(probe.durationSeconds).toBeLessThan(2.2);
    expect(probe.video?.framesPerSecond).toBeGreaterThan(28);
    expect(probe.video?.framesPerSecond).toBeLessThan(32);
  });

  it('a render stopped by a signal is interrupted (tried again), one over its CPU time is too costly (not tried again)', async () => {
    // Twenty seconds of 720p VP8: several CPU seconds to convert to H.264.
    const busy = path.join(work, 'busy.webm');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '20', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M', busy]);
    const stop = new AbortController();
    const stopped = processor.render(busy, WEBM, 'video', path.join(work, 'out-stopped'), stop.signal);
    // Stopped while ffmpeg converts: once it has begun writing the rendition.
    await vi.waitFor(() => expect(existsSync(path.join(work, 'out-stopped.mp4'))).toBe(true), { timeout: 60_000, interval: 20 });
    stop.abort();
    await expect(stopped).rejects.toBeInstanceOf(MediaInterruptedError);

    // One CPU second for a render that needs more: ffmpeg gets SIGXCPU, which it catches and exits 255.
    const tight = await createFfmpegProcessor({ limits: { cpuSeconds: 1 } });
    expect(tight?.confinement.confined).toBe(true);
    await expect(tight!.render(busy, WEBM, 'video', path.join(work, 'out-busy'))).rejects.toBeInstanceOf(MediaTooCostlyError);

    // A file whose own metadata says what ffmpeg says when it is stopped: only ffmpeg's own last line counts.
    const forged = path.join(work, 'forged.webm');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', busy, '-c', 'copy', '-metadata', 'title=Exiting normally, received signal 15.', '-metadata', 'comment=[error] Cannot allocate memory', forged]);
    await expect(tight!.render(forged, WEBM, 'video', path.join(work, 'out-forged'))).rejects.toBeInstanceOf(MediaTooCostlyError);

    // 100 MB of memory for a 720p conversion: an allocation fails, and the render fails for good (not retried).
    const small = await createFfmpegProcessor({ limits: { memoryBytes: 100 * 1024 * 1024 } });
    const failure = await small!.render(busy, WEBM, 'video', path.join(work, 'out-small')).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(MediaInterruptedError);
    // With the default limits the same file converts.
    await expect(processor.render(busy, WEBM, 'video', path.join(work, 'out-default'))).resolves.toMatchObject({ mime: 'video/mp4' });
  }, 180_000);
});

const confirm = (h: Harness, cookie: string, giftId: string, t: UploadTarget, messageType: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/confirm-upload',
    headers: { cookie },
    payload: { giftId, publicUrl: t.publicUrl, messageType, filePath: t.filePath },
  });

/** generate → PUT → confirm of `data` named `fileName`, as a browser would send it. */
async function sendMessage(h: Harness, cookie: string, giftId: string, data: Buffer, fileName: string, fileType: string, messageType: 'audio' | 'video') {
  const gen = await generateUploadUrl(h, cookie, { giftId, fileType, fileName, messageType, fileSize: data.length });
  expect(gen.statusCode, gen.body).toBe(200);
  const t = json<UploadTarget>(gen);
  expect((await putUpload(h, t.uploadUrl, data, fileType)).statusCode).toBe(200);
  return confirm(h, cookie, giftId, t, messageType);
}

/** Nothing of a refused message stays: no file but the gift's photo, no intent, no job, the gift still a draft. */
async function nothingKept(h: Harness, giftId: string) {
  expect((await storedKeys(h, `gifts/${giftId}`)).filter((k) => !k.includes('/photo'))).toEqual([]);
  expect(await h.db.selectFrom('upload_intents').select('id').where('gift_id', '=', giftId).execute()).toEqual([]);
  expect(await h.db.selectFrom('jobs').select('id').where('key', 'like', `media:${giftId}:%`).execute()).toEqual([]);
  expect(await h.db.selectFrom('gifts').select(['status', 'message_path']).where('id', '=', giftId).executeTakeFirstOrThrow()).toEqual({
    status: 'draft',
    message_path: null,
  });
}

describeEachDatabase(
  'hostile media at confirm',
  (get) => {
    const secret = serverSecretFile();
    const refusals = [
      { name: 'an HLS playlist behind an ID3 tag, as a voice message', data: behindId3(playlistOf(secret)), fileName: 'x.m3u8', fileType: 'audio/mpeg', kind: 'audio' },
      { name: 'an HLS playlist behind an ID3 tag, as a video', data: behindId3(playlistOf(secret)), fileName: 'x.m3u8', fileType: 'video/mp4', kind: 'video' },
      { name: 'a bare playlist', data: Buffer.from(playlistOf(secret)), fileName: 'voice.m3u8', fileType: 'audio/mpeg', kind: 'audio' },
      { name: 'a concat script behind an ID3 tag', data: behindId3(concatOf(secret)), fileName: 'list.ffconcat', fileType: 'audio/mpeg', kind: 'audio' },
      { name: 'a data: URI playlist behind an ID3 tag', data: behindId3(dataUriPlaylist()), fileName: 'x.m3u8', fileType: 'audio/mpeg', kind: 'audio' },
    ] as const;
    for (const c of refusals) {
      it(`${c.name} is refused (415) and nothing is kept`, async () => {
        const h = get();
        const { cookie } = await signIn(h);
        const giftId = await createGift(h, cookie);
        const res = await sendMessage(h, cookie, giftId, c.data, c.fileName, c.fileType, c.kind);
        expect(res.statusCode, res.body).toBe(415);
        expect(json(res)).toMatchObject({ success: false, code: 'file_type_invalid', error: texts.sender.fileTypeInvalid });
        await nothingKept(h, giftId);
      });
    }

    const limits = [
      { name: 'a 15-minute video', data: fifteenMinuteStill, code: 'media_too_long', error: texts.media.tooLong('video', recordingLength(900)) },
      { name: 'an 8192×8192 frame', data: eightKFrame, code: 'media_frame_too_large', error: texts.media.frameTooLarge('video', '8192×8192') },
      { name: 'a 120 frames-a-second video', data: highFrameRate, code: 'media_frame_rate_too_high', error: texts.media.frameRateTooHigh('video', '120') },
      // A small first stream, a 7680×4320 second one: every stream is measured, not only the one that is converted.
      { name: 'a video hiding a 7680×4320 second stream', data: hiddenEightKStream, code: 'media_frame_too_large', error: texts.media.frameTooLarge('video', '7680×4320') },
    ] as const;
    for (const c of limits) {
      it(`${c.name} is refused (422) from its probe, before any conversion, and nothing is kept`, async () => {
        const h = get();
        const { cookie } = await signIn(h);
        const giftId = await createGift(h, cookie);
        const res = await sendMessage(h, cookie, giftId, c.data(), 'message.webm', 'video/webm', 'video');
        expect(res.statusCode, res.body).toBe(422);
        expect(json(res)).toEqual({ success: false, code: c.code, error: c.error });
        await nothingKept(h, giftId);
      });
    }

    it('a voice message with a 16000×16000 cover picture is refused (4xx) and nothing is kept', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const res = await sendMessage(h, cookie, giftId, await hugeCoverFlac(), 'voice.flac', 'audio/flac', 'audio');
      // Refused from its picture's size, or by ffprobe at its probe's memory limit: either way not read further.
      expect([415, 422], res.body).toContain(res.statusCode);
      await nothingKept(h, giftId);
    });

    it('the same upload confirmed twice at once (a double click): one stores it, the other is told it changed', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const gen = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/webm', fileName: 'm.webm', messageType: 'video' });
      const t = json<UploadTarget>(gen);
      expect((await putUpload(h, t.uploadUrl, browserWebm(), 'video/webm')).statusCode).toBe(200);
      const answers = await Promise.all([confirm(h, cookie, giftId, t, 'video'), confirm(h, cookie, giftId, t, 'video')]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const gift = await h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
      expect(gift.message_path).toMatch(/\.webm$/);
      expect(await h.media.stat(gift.message_path!)).not.toBeNull();
    });

    it('a browser’s WebM within the limits is stored under .webm, whatever the client named it', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const res = await sendMessage(h, cookie, giftId, browserWebm(), 'clip.m3u8', 'video/webm', 'video');
      expect(res.statusCode, res.body).toBe(200);
      const gift = await h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
      expect(gift).toMatchObject({ message_state: 'processing', message_mime: 'video/webm' });
      expect(gift.message_path).toMatch(/^gifts\/[0-9a-f]{32}\/message-[0-9a-f]{16}\.webm$/);
      expect(MEDIA_LIMITS.maxSeconds).toBe(600);
    });

    it('a 16000×16000 photo is refused from its header (422) and no gift is made', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const before = await h.db.selectFrom('gifts').select('id').execute();
      const png = await hugePng();
      const started = performance.now();
      const res = await submitGift(h, cookie, GIFT_FIELDS, [png]);
      const ms = performance.now() - started;
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toEqual({ success: false, code: 'gift_image_too_many_pixels', error: texts.media.imageTooManyPixels('256') });
      expect(await h.db.selectFrom('gifts').select('id').execute()).toEqual(before);
      // Refused from the header: no decode of 256 megapixels (3 s each before).
      expect(ms).toBeLessThan(1500);
    });

    it('a scan photo of 16000×16000 is refused (413) before the matcher decodes it', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const photos = await scanPhotos();
      const giftId = await activeGift(h, cookie, { photo: photos.reference, pay: false });
      await h.jobs.runDue();
      await payGift(h, cookie, giftId);
      const res = await directScan(h, giftId, await hugePng());
      expect(res.statusCode, res.body).toBe(413);
      expect(json(res)).toMatchObject({ code: 'scan_too_large', error: texts.recipient.scanTooLarge });
    });

    it('a reaction goes through the same gate: a playlist behind an ID3 tag and a 120 frames-a-second video are refused', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const photos = await scanPhotos();
      const giftId = await activeGift(h, cookie, { planId: 'lifetime_us', photo: photos.reference, recipientEmail: uniqueEmail('r'), pay: false });
      await h.jobs.runDue();
      await payGift(h, cookie, giftId);
      const grant = revealCookie(await directScan(h, giftId, photos.genuine), giftId) ?? '';
      const reactionId = await consentedReaction(h, giftId, grant);
      const send = (data: Buffer) => {
        const body = multipart(
          { reactionId, recordingQuality: 'high', durationSeconds: '2', mediaEndTime: '2', syncOffsetMs: '0' },
          [{ name: 'reaction', filename: 'reaction.webm', type: 'video/webm', data }],
        );
        return h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: body.headers, payload: body.payload });
      };
      const playlist = await send(behindId3(playlistOf(secret)));
      expect(playlist.statusCode).toBe(415);
      expect(json(playlist)).toMatchObject({ code: 'reaction_file_invalid' });
      const fast = await send(highFrameRate());
      expect(fast.statusCode).toBe(422);
      expect(json(fast)).toEqual({ success: false, code: 'media_frame_rate_too_high', error: texts.media.frameRateTooHigh('reaction', '120') });
      expect(await storedKeys(h, `reactions/${giftId}`)).toEqual([]);
      // The recording is still open: a good one is taken.
      const good = await send(browserWebm());
      expect(good.statusCode, good.body).toBe(200);
      expect((await storedKeys(h, `reactions/${giftId}`)).map((k) => path.extname(k))).toEqual(['.webm']);
    });

    it('making gifts is rate-limited per sender: the 4th within the window is 429, another sender is not held up', async () => {
      const h = get();
      const a = await signIn(h, uniqueEmail('busy'));
      for (let i = 0; i < 3; i++) expect((await submitGift(h, a.cookie, GIFT_FIELDS, [giftPhoto()])).statusCode).toBe(200);
      const refused = await submitGift(h, a.cookie, GIFT_FIELDS, [giftPhoto()]);
      expect(refused.statusCode).toBe(429);
      expect(json(refused)).toMatchObject({ code: 'rate_limited', error: texts.sender.tooManyRequests });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const b = await signIn(h, uniqueEmail('calm'));
      expect((await submitGift(h, b.cookie, GIFT_FIELDS, [giftPhoto()])).statusCode).toBe(200);
    });
  },
  { mediaProcessor: processor, giftRateLimit: { max: 3, timeWindow: 60_000 } },
);
