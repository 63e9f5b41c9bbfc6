import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { enqueue } from '../src/jobs/queue.ts';
import { texts } from '@giftlens/contract/texts';
import { createGift, submitGift, uploadVideo } from './helpers/flows.ts';
import { describeEachStorage, fetchMedia, it, json, signIn } from './helpers/harness.ts';
import { tinyMp4 } from './helpers/media.ts';

/** What the server itself reads and writes, the same on local files and in a bucket. */
describeEachStorage('media storage', (get, storage) => {
  it('a download link serves the message as an attachment, with Range', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const video = tinyMp4();
    const t = await uploadVideo(h, cookie, giftId, video);
    const link = h.media.signedUrl(t.filePath, 60_000, h.clock.now(), { download: true });
    expect(link).toMatch(/&download=1$/);
    if (storage === 's3') {
      // Our signature checked, then a presigned GET of the bucket; the redirect itself is never cached.
      const redirect = await h.app.inject({ method: 'GET', url: link });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers['cache-control']).toBe('no-store');
      const location = new URL(String(redirect.headers.location));
      expect(location.origin).toBe(h.media.browserOrigin);
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(60);
    }
    const part = await fetchMedia(h, link, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${video.length}`);
    expect(part.rawPayload.equals(video.subarray(0, 100))).toBe(true);
    expect(part.headers['content-disposition']).toBe(`attachment; filename="giftlens-${path.basename(t.filePath)}"`);
    expect(part.headers['content-type']).toBe('video/mp4');
  });

  it('download=1 is part of the signature: added to a viewing link or taken off a download link, it is refused', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const t = await uploadVideo(h, cookie, giftId);
    const view = h.media.signedUrl(t.filePath, 60_000, h.clock.now());
    const download = h.media.signedUrl(t.filePath, 60_000, h.clock.now(), { download: true });
    const disposition = async (url: string) => {
      const res = await fetchMedia(h, url);
      return { status: res.statusCode, disposition: res.headers['content-disposition'] ?? null };
    };
    expect(await disposition(view)).toEqual({ status: 200, disposition: null });
    expect(await disposition(download)).toEqual({ status: 200, disposition: `attachment; filename="giftlens-${path.basename(t.filePath)}"` });

    const refused = [
      `${view}&download=1`, // a viewing link made a download
      download.replace(/&download=1$/, ''), // a download link made a viewing one
      download.replace(/&download=1$/, '&download=0'),
      `${download}&download=1`, // twice
      `${view}&download=`,
      `${view}&download=true`,
    ];
    for (const url of refused) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(json(res)).toMatchObject({ success: false, code: 'media_url_invalid', error: texts.sender.mediaLinkExpired });
    }
    if (storage === 's3') {
      // The disposition then travels in the presigned GET's query, which S3's own signature (SigV4) covers.
      const location = async (url: string) => new URL(String((await h.app.inject({ method: 'GET', url })).headers.location));
      expect((await location(view)).searchParams.get('response-content-disposition')).toBeNull();
      expect((await location(download)).searchParams.get('response-content-disposition')).toMatch(/^attachment; filename="giftlens-/);
    }
  });

  it('a download is saved under the name it was signed with, safe for any name (RFC 6266), and the name cannot be changed', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const t = await uploadVideo(h, cookie, giftId);
    const named = (name: string) => h.media.signedUrl(t.filePath, 60_000, h.clock.now(), { download: true, name });
    const disposition = async (url: string) => {
      const res = await fetchMedia(h, url);
      expect(res.statusCode, url).toBe(200);
      return res.headers['content-disposition'];
    };
    expect(named('Message for Ravi')).toMatch(/&download=1&name=Message%20for%20Ravi$/);
    expect(await disposition(named('Message for Ravi'))).toBe('attachment; filename="Message for Ravi.mp4"');
    expect(await disposition(named("Ravi's reaction"))).toBe(`attachment; filename="Ravi's reaction.mp4"`);
    // Beyond ASCII: a stand-in for old clients, the exact name in filename* (UTF-8, percent-encoded).
    expect(await disposition(named('Message for Zoë 💝'))).toBe(
      `attachment; filename="Message for Zo_ __.mp4"; filename*=UTF-8''Message%20for%20Zo%C3%AB%20%F0%9F%92%9D.mp4`,
    );
    // Quotes, separators, a header break, a right-to-left override and a name that would hide its extension.
    expect(await disposition(named('Message for "Bob"\r\nSet-Cookie: x=1/../..\\evil\u202Egpj.exe 100%'))).toBe(
      `attachment; filename="Message for -Bob-Set-Cookie- x=1-..-..-evilgpj.exe 100_.mp4"; filename*=UTF-8''Message%20for%20-Bob-Set-Cookie-%20x%3D1-..-..-evilgpj.exe%20100%25.mp4`,
    );
    expect(await disposition(named('...'))).toBe('attachment; filename="GiftLens.mp4"');

    const link = named('Message for Ravi');
    const view = h.media.signedUrl(t.filePath, 60_000, h.clock.now());
    for (const url of [
      link.replace('name=Message%20for%20Ravi', 'name=Message%20for%20Eve'), // another name
      link.replace(/&name=[^&]*$/, ''), // the name taken off
      `${link}&name=x`, // twice
      `${view}&name=Message%20for%20Ravi`, // a name on a viewing link
    ]) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
    }
    if (storage === 's3') {
      // The bucket answers with the same header: it travels in the presigned GET's signed query.
      const location = new URL(String((await h.app.inject({ method: 'GET', url: named('Message for Zoë 💝') })).headers.location));
      expect(location.searchParams.get('response-content-disposition')).toBe(
        `attachment; filename="Message for Zo_ __.mp4"; filename*=UTF-8''Message%20for%20Zo%C3%AB%20%F0%9F%92%9D.mp4`,
      );
    }
  });

  it('reference photos are stored and read back (what a scan matches against)', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const photo = await h.db.selectFrom('gift_photos').select('storage_path').where('gift_id', '=', giftId).executeTakeFirstOrThrow();
    const size = (await h.media.stat(photo.storage_path))?.size ?? 0;
    expect(size).toBeGreaterThan(1000);
    const whole = await h.media.readHead(photo.storage_path, size);
    expect(whole.length).toBe(size);
    expect(whole.subarray(0, 3).toString('hex')).toBe('ffd8ff');
  });

  it('a media.delete job removes the files', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const t = await uploadVideo(h, cookie, giftId);
    expect(await h.media.stat(t.filePath)).not.toBeNull();
    await enqueue(h.db, h.clock.now(), 'media.delete', { keys: [t.filePath, 'gifts/never/there.mp4'] });
    expect(await h.jobs.runDue()).toBeGreaterThanOrEqual(1);
    expect(await h.media.stat(t.filePath)).toBeNull();
    expect((await fetchMedia(h, t.publicUrl)).statusCode).toBe(404);
  });

  it('stale partial uploads are removed, fresh ones kept', async () => {
    const h = get();
    const tmp = path.join(h.mediaDir, '.tmp');
    await mkdir(tmp, { recursive: true });
    await writeFile(path.join(tmp, 'old.part'), 'x');
    await writeFile(path.join(tmp, 'new.part'), 'x');
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    await utimes(path.join(tmp, 'old.part'), dayAgo, dayAgo);
    expect(await h.media.removeStaleParts(6 * 3600 * 1000, new Date())).toBe(1);
  });

  // Last: it stops the S3 server.
  it('/api/health tells whether the storage is reachable; a call that needs it answers 503, soon', async () => {
    const h = get();
    const ok = await h.app.inject({ method: 'GET', url: '/api/health' });
    expect(json(ok)).toMatchObject({ storage: 'ok' });
    if (!h.s3) return;
    const { cookie } = await signIn(h);
    const gifts = async () => (await h.db.selectFrom('gifts').select('id').execute()).length;
    const giftsBefore = await gifts();
    await h.s3.stop();
    // A new gift stores its photo: without the store that is the service's outage (try again), not a bug (500).
    const started = Date.now();
    const refused = await submitGift(h, cookie);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(json(refused)).toMatchObject({ success: false, code: 'service_unavailable', error: texts.sender.generic });
    expect(await gifts()).toBe(giftsBefore);
    const down = await h.app.inject({ method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    const body = json<{ success: boolean; storage: string }>(down);
    expect(body.success).toBe(false);
    expect(['unreachable', 'timeout']).toContain(body.storage);
    // Without its storage a node cannot serve: not ready.
    const notReady = await h.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(json<{ success: boolean; database: string; storage: string }>(notReady)).toMatchObject({ success: false, database: 'ok' });
  });
});
