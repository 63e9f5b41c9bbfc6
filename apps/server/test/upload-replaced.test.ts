import { texts } from '@giftlens/contract/texts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, expect, vi } from 'vitest';
import { createFfmpegProcessor, type MediaProcessor } from '../src/adapters/media-processor.ts';
import { createGift, generateUploadUrl, type UploadTarget } from './helpers/flows.ts';
import { describeEachStorage, it, json, putUpload, signIn, type Harness } from './helpers/harness.ts';
import { giftPhoto, tinyMp4 } from './helpers/media.ts';

const MB = 1024 * 1024;

const ffmpeg = await createFfmpegProcessor();
if (!ffmpeg) throw new Error('These tests need ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg).');

/**
 * The real ffmpeg, with a moment inside confirm-upload's checks: ffprobe runs after the size and type checks and
 * before the upload is promoted to its key, so whatever `duringProbe` does lands between the checks and the copy.
 */
let duringProbe: (() => Promise<void>) | null = null;
const processor: MediaProcessor = {
  confinement: ffmpeg.confinement,
  async probe(file, format, signal) {
    const act = duringProbe;
    duringProbe = null;
    if (act) await act();
    return ffmpeg.probe(file, format, signal);
  },
  render: (input, format, kind, outBase, signal) => ffmpeg.render(input, format, kind, outBase, signal),
  renderCombined: (parts, outFile, signal) => ffmpeg.renderCombined(parts, outFile, signal),
};

beforeEach(() => {
  duringProbe = null;
});

/** A new sender's draft gift with a real MP4 PUT where generate-upload-url said, not yet confirmed. */
async function putNotConfirmed(h: Harness) {
  const { cookie } = await signIn(h);
  const giftId = await createGift(h, cookie);
  const res = await generateUploadUrl(h, cookie, { giftId, fileType: 'video/mp4', fileName: 'message.mp4', messageType: 'video' });
  expect(res.statusCode, res.body).toBe(200);
  const t = json<UploadTarget>(res);
  const video = tinyMp4();
  expect((await putUpload(h, t.uploadUrl, video)).statusCode).toBe(200);
  return { cookie, giftId, t, video };
}

/** Where confirm stores the checked MP4: the upload's name with the extension of what its bytes are. */
const stored = (t: UploadTarget) => t.filePath.replace(/\.upload$/, '.mp4');

const confirm = (h: Harness, cookie: string, giftId: string, t: UploadTarget) =>
  h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/confirm-upload',
    headers: { cookie },
    payload: { giftId, publicUrl: t.publicUrl, messageType: 'video', filePath: t.filePath },
  });

describeEachStorage(
  'an upload replaced while confirm checks it',
  (get, storage) => {
    it('a checked upload is promoted as it was checked', async () => {
      const h = get();
      const { cookie, giftId, t, video } = await putNotConfirmed(h);
      let probed = false;
      duringProbe = () => Promise.resolve(void (probed = true));
      const res = await confirm(h, cookie, giftId, t);
      expect(res.statusCode, res.body).toBe(200);
      expect(probed).toBe(true);
      expect((await h.media.readHead(stored(t), video.length)).equals(video)).toBe(true);
    });

    it('a bigger file PUT between the checks and the promotion is never promoted (409, nothing kept)', async () => {
      const h = get();
      const { cookie, giftId, t } = await putNotConfirmed(h);
      // Not a video, and bigger: over the Premium plan's 30 MB on the bucket (which cannot stop it); under it for
      // the server's own PUT target, which stops a file over the plan while it arrives.
      const swapped = Buffer.concat([giftPhoto(), Buffer.alloc((storage === 's3' ? 31 : 2) * MB, 0x5a)]);
      let replacedWith = 0;
      duringProbe = async () => {
        const again = await putUpload(h, t.uploadUrl, swapped, 'image/jpeg');
        replacedWith = again.statusCode;
      };
      const res = await confirm(h, cookie, giftId, t);
      // The re-PUT itself went through: only confirm stands between it and the message.
      expect(replacedWith).toBe(200);
      expect(res.statusCode, res.body).toBe(409);
      expect(json(res)).toEqual({ success: false, code: 'upload_changed', error: texts.sender.uploadChanged });
      expect(await h.media.stat(t.filePath)).toBeNull();
      expect(await h.media.stat(stored(t))).toBeNull();
      expect(await h.media.stat(h.media.landingKey(t.filePath))).toBeNull();
      const gift = await h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
      expect(gift).toMatchObject({ status: 'draft', message_path: null, message_size: null });
      expect(await h.db.selectFrom('upload_intents').select('id').where('gift_id', '=', giftId).execute()).toEqual([]);
      expect(await h.db.selectFrom('jobs').select('id').where('key', 'like', `media:${giftId}:%`).execute()).toEqual([]);
    });

    // The server's own PUT target: bytes still arriving when confirm runs are committed under the gift's lock.
    if (storage === 'local') {
      it('a PUT still arriving while confirm runs cannot replace the confirmed message when it ends', async () => {
        const h = get();
        const { cookie, giftId, t, video } = await putNotConfirmed(h);
        // A second PUT of the same URL starts (the upload is not confirmed yet) and keeps its body open.
        const body = new PassThrough();
        const late = h.app.inject({ method: 'PUT', url: t.uploadUrl, headers: { 'content-type': 'image/jpeg' }, payload: body });
        body.write(giftPhoto());
        const staged = async () => (await readdir(path.join(h.mediaDir, '.tmp'))).some((f) => f.endsWith('.part'));
        // Its part file is on disk: the PUT is in the middle of its body.
        await vi.waitFor(async () => expect(await staged()).toBe(true), { timeout: 15_000, interval: 10 });

        const ok = await confirm(h, cookie, giftId, t);
        expect(ok.statusCode, ok.body).toBe(200);
        body.end(Buffer.alloc(MB, 0x5a));
        const refused = await late;
        expect(refused.statusCode).toBe(403);
        expect(json(refused).error).toBe(texts.sender.uploadUrlInvalid);
        expect((await h.media.readHead(stored(t), video.length + 1)).equals(video)).toBe(true);
        expect(await h.media.stat(t.filePath)).toBeNull();
        expect((await h.db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow()).message_size).toBe(video.length);
        expect((await readdir(path.join(h.mediaDir, '.tmp'))).filter((f) => f.endsWith('.part'))).toEqual([]);
      });
    }
  },
  { mediaProcessor: processor },
);
