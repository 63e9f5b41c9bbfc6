import { texts } from '@giftlens/contract/texts';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect, vi } from 'vitest';
import { createHousekeepingService } from '../src/modules/housekeeping/housekeeping.service.ts';
import { createGift, generateUploadUrl, payGift, uploadVideo, type UploadTarget } from './helpers/flows.ts';
import { describeEachStorage, fetchMedia, it, json, putUpload, signIn, type Harness } from './helpers/harness.ts';
import { giftPhoto, tinyMp4, tinyWav } from './helpers/media.ts';

const MB = 1024 * 1024;

async function target(h: Harness, cookie: string, giftId: string, extra: Record<string, unknown> = {}) {
  const res = await generateUploadUrl(h, cookie, {
    giftId,
    fileType: 'video/mp4',
    fileName: 'message.mp4',
    messageType: 'video',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<UploadTarget>(res);
}

const put = putUpload;

/** Whether a media key holds a file, on either backend. */
const stored = async (h: Harness, key: string) => (await h.media.stat(key)) !== null;
/** Where the PUT bytes of an upload to `key` are before confirm (the key itself on local files). */
const landed = (h: Harness, key: string) => h.media.landingKey(key);

const confirm = (h: Harness, cookie: string, giftId: string, t: UploadTarget, messageType = 'video') =>
  h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/confirm-upload',
    headers: { cookie },
    payload: { giftId, publicUrl: t.publicUrl, messageType, filePath: t.filePath },
  });

async function tmpFiles(h: Harness) {
  try {
    return await readdir(path.join(h.mediaDir, '.tmp'));
  } catch {
    return [];
  }
}

const giftRow = (h: Harness, giftId: string) =>
  h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();

/** A refused upload leaves nothing: no file where it landed or at its key, no intent, the gift still a draft. */
async function expectRefusedAndGone(h: Harness, giftId: string, t: UploadTarget) {
  expect(await stored(h, landed(h, t.filePath))).toBe(false);
  expect(await stored(h, t.filePath)).toBe(false);
  expect(await giftRow(h, giftId)).toMatchObject({ status: 'draft', message_path: null });
  expect(await h.db.selectFrom('upload_intents').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(0);
}

describeEachStorage('uploads', (get, storage) => {
  it('generate → PUT → confirm stores a real MP4 and sets the gift to message_uploaded', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const video = tinyMp4();
    const t = await target(h, cookie, giftId, { fileSize: video.length });
    if (storage === 'local') expect(t.uploadUrl).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]+\?exp=\d+&sig=[0-9a-f]{64}$/);
    else {
      // Straight to the bucket, presigned for an hour, at a landing key apart from the message's own.
      const { endpoint, bucket } = h.s3?.settings ?? { endpoint: '', bucket: '' };
      expect(t.uploadUrl.startsWith(`${endpoint}/${bucket}/incoming/${t.filePath}?`)).toBe(true);
      expect(new URL(t.uploadUrl).searchParams.get('X-Amz-Expires')).toBe('3600');
      expect(t.uploadUrl).not.toContain('x-amz-checksum');
    }
    // Where the bytes land: no extension of the client's; confirm names the stored file for what the bytes are.
    expect(t.filePath).toMatch(new RegExp(`^gifts/${giftId}/message-[0-9a-f]{16}\\.upload$`));
    expect(t.publicUrl).toMatch(/^\/media\/gifts\/.+\?exp=\d+&sig=[0-9a-f]{64}$/);

    const res = await put(h, t.uploadUrl, video);
    expect(res.statusCode).toBe(200);
    if (storage === 'local') expect(json(res)).toEqual({ success: true, size: video.length });
    // Not yet confirmed: the gift is still a draft.
    expect((await giftRow(h, giftId)).status).toBe('draft');

    const ok = await confirm(h, cookie, giftId, t);
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toEqual({ success: true });
    const key = t.filePath.replace(/\.upload$/, '.mp4');
    expect(await giftRow(h, giftId)).toMatchObject({
      status: 'message_uploaded',
      message_type: 'video',
      message_path: key,
      message_mime: 'video/mp4',
      message_size: video.length,
    });
    expect(await stored(h, t.filePath)).toBe(false);

    // A signed media URL serves it, with Range support for seeking.
    const url = h.media.signedUrl(key, 60_000, h.clock.now());
    const full = await fetchMedia(h, url);
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.equals(video)).toBe(true);
    expect(full.headers['content-type']).toBe('video/mp4');
    expect(full.headers['cache-control']).toBe('private, max-age=300');
    const part = await fetchMedia(h, url, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(part.rawPayload.equals(video.subarray(100, 200))).toBe(true);
    // s3rver reads a suffix range (bytes=-10) as bytes=0-10; S3 itself and the local files do it right.
    if (storage === 'local') {
      const tail = await fetchMedia(h, url, { range: 'bytes=-10' });
      expect(tail.rawPayload.equals(video.subarray(video.length - 10))).toBe(true);
    }
    const bad = await fetchMedia(h, url, { range: `bytes=${video.length}-` });
    expect(bad.statusCode).toBe(416);
    if (storage === 'local') {
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(full.headers['x-content-type-options']).toBe('nosniff');
    } else {
      // Nothing is left where the browser's bytes landed.
      expect(await stored(h, `incoming/${t.filePath}`)).toBe(false);
    }
  });

  it('media URLs need a valid, unexpired signature', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const t = await uploadVideo(h, cookie, giftId);
    const tampered = t.publicUrl.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await h.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const unsigned = t.publicUrl.split('?')[0] ?? '';
    expect((await h.app.inject({ method: 'GET', url: unsigned })).statusCode).toBe(403);
    h.clock.advance(6 * 60 * 1000);
    expect((await h.app.inject({ method: 'GET', url: t.publicUrl })).statusCode).toBe(403);
    const traversal = await h.app.inject({ method: 'GET', url: '/media/../session-secret?exp=9999999999&sig=00' });
    expect([403, 404]).toContain(traversal.statusCode);
  });

  it('stores a real WAV voice message', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const wav = tinyWav();
    const t = await target(h, cookie, giftId, { fileType: 'audio/wav', fileName: 'voice.wav', messageType: 'audio' });
    expect((await put(h, t.uploadUrl, wav, 'audio/wav')).statusCode).toBe(200);
    expect((await confirm(h, cookie, giftId, t, 'audio')).statusCode).toBe(200);
    expect(await giftRow(h, giftId)).toMatchObject({
      message_type: 'audio',
      status: 'message_uploaded',
      message_path: t.filePath.replace(/\.upload$/, '.wav'),
      message_mime: 'audio/wav',
    });
  });

  it('refuses a declared size over the plan limit with the spec message (413), before any byte moves', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const res = await generateUploadUrl(h, cookie, {
      giftId,
      fileType: 'video/mp4',
      fileName: 'big.mp4',
      messageType: 'video',
      fileSize: 31 * MB,
    });
    expect(res.statusCode).toBe(413);
    expect(json(res)).toEqual({
      success: false,
      error: 'File size too large! Your Premium plan allows files up to 30MB. Your file is 31.00MB.',
      code: 'file_too_large',
    });
    expect(await h.db.selectFrom('upload_intents').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(0);
  });

  it('the Lifetime plan allows 50 MB', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie, {
      recipientName: 'Maya',
      recipientEmail: 'maya@example.com',
      occasion: 'wedding',
      planId: 'lifetime_in',
    });
    const ok = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/mp4', fileName: 'a.mp4', messageType: 'video', fileSize: 45 * MB });
    expect(ok.statusCode).toBe(200);
    const tooBig = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/mp4', fileName: 'a.mp4', messageType: 'video', fileSize: 51 * MB });
    expect(json(tooBig).error).toBe('File size too large! Your Lifetime plan allows files up to 50MB. Your file is 51.00MB.');
  });

  // The server's own PUT target stops what is too large while it arrives; a bucket cannot, so confirm does.
  if (storage === 'local') {
    it('aborts a PUT larger than the plan while streaming (413) and leaves no partial file', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      // The client lies: it declares a small file, then sends more than the plan allows.
      const t = await target(h, cookie, giftId, { fileSize: 1000 });
      // 40 MB as a stream without Content-Length: only the streaming limit can stop it.
      const chunk = Buffer.alloc(MB);
      const body = Readable.from((function* () {
        yield tinyMp4();
        for (let i = 0; i < 40; i++) yield chunk;
      })());
      const res = await h.app.inject({
        method: 'PUT',
        url: t.uploadUrl,
        headers: { 'content-type': 'video/mp4' },
        payload: body,
      });
      expect(res.statusCode).toBe(413);
      expect(json(res)).toMatchObject({ success: false, code: 'file_too_large' });
      // Stopped just past 30 MB, not after reading all 40.
      expect(json(res).error).toMatch(/^File size too large! Your Premium plan allows files up to 30MB\. Your file is 30\.\d\dMB\.$/);
      expect(existsSync(path.join(h.mediaDir, t.filePath))).toBe(false);
      expect(await tmpFiles(h)).toEqual([]);
      // Confirm finds nothing to confirm.
      const c = await confirm(h, cookie, giftId, t);
      expect(c.statusCode).toBe(400);
      expect(json(c).error).toBe(texts.sender.confirmUploadFailed);
      expect((await giftRow(h, giftId)).status).toBe('draft');
    });

    it('refuses a too-large Content-Length up front', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const t = await target(h, cookie, giftId);
      const big = Buffer.alloc(30 * MB + 1);
      const res = await put(h, t.uploadUrl, big);
      expect(res.statusCode).toBe(413);
      expect(await tmpFiles(h)).toEqual([]);
      expect(existsSync(path.join(h.mediaDir, t.filePath))).toBe(false);
    });
  }

  if (storage === 's3') {
    it('an upload over the plan sent straight to the bucket is refused at confirm (413) and deleted', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      // The client lies: it declares a small file, then PUTs more than the Premium plan's 30 MB.
      const t = await target(h, cookie, giftId, { fileSize: 1000 });
      const big = Buffer.concat([tinyMp4(), Buffer.alloc(30 * MB)]);
      expect((await put(h, t.uploadUrl, big)).statusCode).toBe(200);
      expect(await stored(h, landed(h, t.filePath))).toBe(true);
      const res = await confirm(h, cookie, giftId, t);
      expect(res.statusCode).toBe(413);
      expect(json(res)).toEqual({
        success: false,
        // 30 MB and a few kB: rounded up, never shown as the limit itself.
        error: 'File size too large! Your Premium plan allows files up to 30MB. Your file is 30.01MB.',
        code: 'file_too_large',
      });
      await expectRefusedAndGone(h, giftId, t);
    });

    it('an expired presigned PUT is refused by the bucket', async () => {
      const h = get();
      // Signed 5 s ago for 1 s (the signer reads Date, faked here): expired on the bucket's own clock, no sleep.
      const now = new Date(Date.now() - 5000);
      vi.useFakeTimers({ toFake: ['Date'], now });
      const url = await h.media
        .uploadUrl({ id: 'x', key: 'gifts/expiry/message-0.mp4', expiresAt: new Date(now.getTime() + 1000), now })
        .finally(() => vi.useRealTimers());
      expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('1');
      expect(new URL(url).searchParams.get('X-Amz-Date')).toBe(now.toISOString().replace(/[-:]|\.\d{3}/g, ''));
      const res = await put(h, url, tinyMp4());
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Request has expired');
      expect(await stored(h, landed(h, 'gifts/expiry/message-0.mp4'))).toBe(false);
    });

    it('a presigned PUT used again after confirm does not change the confirmed message', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const video = tinyMp4();
      const t = await target(h, cookie, giftId);
      expect((await put(h, t.uploadUrl, video)).statusCode).toBe(200);
      expect((await confirm(h, cookie, giftId, t)).statusCode).toBe(200);
      // The URL still works until it expires, but it only reaches the landing key, not the message.
      expect((await put(h, t.uploadUrl, giftPhoto(), 'image/jpeg')).statusCode).toBe(200);
      const key = t.filePath.replace(/\.upload$/, '.mp4');
      expect((await fetchMedia(h, h.media.signedUrl(key, 60_000, h.clock.now()))).rawPayload.equals(video)).toBe(true);
      expect((await h.media.stat(key))?.size).toBe(video.length);
      // Housekeeping removes what landed there once the intent has expired.
      const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
      h.clock.advance(2 * 24 * 60 * 60 * 1000);
      await createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log: quiet }).run();
      expect(await stored(h, landed(h, t.filePath))).toBe(false);
      expect(await stored(h, key)).toBe(true);
    });
  }

  it('a PNG sent as a video is refused at confirm (415) and deleted', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const t = await target(h, cookie, giftId);
    expect((await put(h, t.uploadUrl, giftPhoto())).statusCode).toBe(200);
    expect(await stored(h, landed(h, t.filePath))).toBe(true);
    const res = await confirm(h, cookie, giftId, t);
    expect(res.statusCode).toBe(415);
    expect(json(res)).toEqual({ success: false, error: texts.sender.fileTypeInvalid, code: 'file_type_invalid' });
    await expectRefusedAndGone(h, giftId, t);
  });

  it('a video confirmed as a voice message is refused too', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const t = await target(h, cookie, giftId, { fileType: 'audio/wav', fileName: 'voice.wav', messageType: 'audio' });
    await put(h, t.uploadUrl, Buffer.from('RIFF....not really a wave file at all'), 'audio/wav');
    const res = await confirm(h, cookie, giftId, t, 'audio');
    expect(res.statusCode).toBe(415);
  });

  it('refuses a declared type that is not video or audio', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const res = await generateUploadUrl(h, cookie, { giftId, fileType: 'image/png', fileName: 'a.png', messageType: 'video' });
    expect(res.statusCode).toBe(415);
    expect(json(res).error).toBe(texts.sender.fileTypeInvalid);
    const badKind = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/mp4', fileName: 'a.mp4', messageType: 'hologram' });
    expect(badKind.statusCode).toBe(400);
  });

  // The server's own upload target (a bucket checks its presigned URLs itself; see the s3 tests above).
  if (storage === 'local') {
    it('refuses a forged or expired upload URL', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const t = await target(h, cookie, giftId);
      const forged = t.uploadUrl.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`);
      const res = await put(h, forged, tinyMp4());
      expect(res.statusCode).toBe(403);
      expect(json(res).error).toBe(texts.sender.uploadUrlInvalid);
      h.clock.advance(61 * 60 * 1000);
      const expired = await put(h, t.uploadUrl, tinyMp4());
      expect(expired.statusCode).toBe(403);
      expect(existsSync(path.join(h.mediaDir, t.filePath))).toBe(false);
    });

    it('a signed URL works for its own path only, and an upload URL not again after confirm', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await createGift(h, cookie);
      const a = await target(h, cookie, giftId);
      const b = await target(h, cookie, giftId);
      // B's signature on A's upload token, and A's media signature on B's path.
      const crossed = `${a.uploadUrl.split('?')[0] ?? ''}?${b.uploadUrl.split('?')[1] ?? ''}`;
      expect((await put(h, crossed, tinyMp4())).statusCode).toBe(403);
      expect((await put(h, a.uploadUrl, tinyMp4())).statusCode).toBe(200);
      const otherPath = `/media/${b.filePath}?${a.publicUrl.split('?')[1] ?? ''}`;
      expect((await h.app.inject({ method: 'GET', url: otherPath })).statusCode).toBe(403);
      expect((await h.app.inject({ method: 'GET', url: a.publicUrl })).statusCode).toBe(200);
      expect((await confirm(h, cookie, giftId, a)).statusCode).toBe(200);
      // Confirmed, the bytes are stored under their sniffed type's name: the landing URL serves nothing now.
      expect((await h.app.inject({ method: 'GET', url: a.publicUrl })).statusCode).toBe(404);
      expect((await put(h, a.uploadUrl, tinyMp4())).statusCode).toBe(403);
    });
  }

  it('a signed media URL works for its own path only', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const a = await uploadVideo(h, cookie, giftId);
    const b = await target(h, cookie, giftId);
    const otherPath = `/media/${b.filePath}?${a.publicUrl.split('?')[1] ?? ''}`;
    expect((await h.app.inject({ method: 'GET', url: otherPath })).statusCode).toBe(403);
    expect((await fetchMedia(h, a.publicUrl)).statusCode).toBe(200);
  });

  it('needs a session, and only for the own gift', async () => {
    const h = get();
    const owner = await signIn(h);
    const giftId = await createGift(h, owner.cookie);
    const body = { giftId, fileType: 'video/mp4', fileName: 'a.mp4', messageType: 'video' };
    const anon = await h.app.inject({ method: 'POST', url: '/api/gift-sender/generate-upload-url', payload: body });
    expect(anon.statusCode).toBe(401);
    const stranger = await signIn(h);
    const foreign = await generateUploadUrl(h, stranger.cookie, body);
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign).error).toBe(texts.sender.giftNotFound);

    const t = await target(h, owner.cookie, giftId);
    await put(h, t.uploadUrl, tinyMp4());
    const foreignConfirm = await confirm(h, stranger.cookie, giftId, t);
    expect(foreignConfirm.statusCode).toBe(404);
    const anonConfirm = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/confirm-upload',
      payload: { giftId, publicUrl: t.publicUrl, messageType: 'video', filePath: t.filePath },
    });
    expect(anonConfirm.statusCode).toBe(401);
    expect((await giftRow(h, giftId)).status).toBe('draft');
    const foreignText = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/save-text-message',
      headers: { cookie: stranger.cookie },
      payload: { giftId, text: 'hi' },
    });
    expect(foreignText.statusCode).toBe(404);
  });

  it('saves a text message, and uploading again replaces the previous file', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const first = await uploadVideo(h, cookie, giftId);
    const second = await uploadVideo(h, cookie, giftId);
    expect(await stored(h, first.filePath)).toBe(false);
    expect(await stored(h, second.filePath)).toBe(true);

    const empty = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/save-text-message',
      headers: { cookie },
      payload: { giftId, text: '   ' },
    });
    expect(json(empty)).toMatchObject({ success: false, error: texts.sender.messageRequired });
    const text = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/save-text-message',
      headers: { cookie },
      payload: { giftId, text: 'Happy birthday, Maya!' },
    });
    expect(json(text)).toEqual({ success: true });
    expect(await giftRow(h, giftId)).toMatchObject({
      status: 'message_uploaded',
      message_type: 'text',
      message_text: 'Happy birthday, Maya!',
      message_path: null,
    });
    expect(await stored(h, second.filePath)).toBe(false);
  });

  it('a paid gift may change its message until it is first opened, and stays paid', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const first = await uploadVideo(h, cookie, giftId);
    await payGift(h, cookie, giftId);
    const second = await uploadVideo(h, cookie, giftId);
    const gift = await h.db.selectFrom('gifts').select(['status', 'message_path']).where('id', '=', giftId).executeTakeFirstOrThrow();
    expect(gift).toEqual({ status: 'active', message_path: second.filePath });
    expect(second.filePath).toMatch(/\.mp4$/);
    expect(await h.media.stat(first.filePath)).toBeNull();

    await h.db.updateTable('gifts').set({ first_opened_at: h.clock.now().toISOString() }).where('id', '=', giftId).execute();
    const res = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/mp4', fileName: 'a.mp4', messageType: 'video' });
    expect(res.statusCode).toBe(409);
    expect(json(res).error).toBe(texts.sender.messageLocked);
    const text = await h.app.inject({ method: 'POST', url: '/api/gift-sender/save-text-message', headers: { cookie }, payload: { giftId, text: 'Too late' } });
    expect(text.statusCode).toBe(409);
    expect(json(text).error).toBe(texts.sender.messageLocked);
  });
});
