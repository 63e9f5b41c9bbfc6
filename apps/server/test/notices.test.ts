import { texts } from '@giftlens/contract/texts';
import { PushNotice } from '@giftlens/contract/push';
import type { PlayConsentResponse } from '@giftlens/contract/recipient';
import { readFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, signIn, uniqueEmail, VAPID, type Harness } from './helpers/harness.ts';
import { multipart } from './helpers/media.ts';
import { browserKeys } from './helpers/push-receiver.ts';
import { activeGift, directScan, REACTION_WEBM, revealCookie, scanPhotos } from './helpers/recipient.ts';
import { noticeListeners } from './helpers/notice-listeners.ts';

const { smtp, receiver, harness } = await noticeListeners();

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

const mailsTo = (address: string) => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address);
const pushesTo = (endpointPath: string) => receiver.received.filter((r) => r.path === endpointPath);

function subscribe(h: Harness, cookie: string | null, body: unknown) {
  return h.app.inject({ method: 'POST', url: '/api/push/subscribe', headers: cookie ? { cookie } : {}, payload: body as object });
}

/** A signed-in sender with one live device and one the push service has dropped (410). */
async function senderWithDevices(h: Harness) {
  const { cookie, email } = await signIn(h, uniqueEmail('sender'), 'Asha');
  const device = browserKeys();
  const livePath = `/push/${email}`;
  const gonePath = `/gone/${email}`;
  for (const p of [livePath, gonePath]) {
    const res = await subscribe(h, cookie, { endpoint: `${receiver.origin}${p}`, expirationTime: null, keys: { p256dh: device.p256dh, auth: device.auth } });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { cookie, email, device, livePath, gonePath };
}

describeEachDatabase(
  'notices to the sender',
  (get) => {
    it('gives the VAPID key and stores a signed-in sender’s subscription; bad ones are refused', async () => {
      const h = get();
      const key = await h.app.inject({ method: 'GET', url: '/api/push/public-key' });
      expect(json(key)).toEqual({ success: true, publicKey: VAPID.publicKey });

      const { cookie } = await signIn(h);
      const device = browserKeys();
      const good = { endpoint: `${receiver.origin}/push/x`, expirationTime: null, keys: { p256dh: device.p256dh, auth: device.auth } };
      expect((await subscribe(h, null, good)).statusCode).toBe(401);
      const refused: [unknown, string][] = [
        [{ ...good, endpoint: 'http://127.0.0.1/push' }, texts.sender.pushSubscriptionInvalid],
        [{ ...good, endpoint: 'https://internal.example/admin' }, texts.sender.pushServiceNotAllowed],
        [{ ...good, endpoint: 'https://user:pw@127.0.0.1/push' }, texts.sender.pushServiceNotAllowed],
        [{ ...good, keys: { p256dh: 'short', auth: device.auth } }, texts.sender.pushSubscriptionInvalid],
        [{ ...good, keys: undefined }, texts.sender.pushSubscriptionInvalid],
        [{}, texts.sender.pushSubscriptionInvalid],
      ];
      for (const [body, message] of refused) {
        const res = await subscribe(h, cookie, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(json(res).error).toBe(message);
      }
      expect((await subscribe(h, cookie, good)).statusCode).toBe(200);
      expect((await subscribe(h, cookie, good)).statusCode).toBe(200); // again: still one row
      const rows = await h.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', good.endpoint).execute();
      expect(rows).toHaveLength(1);

      const off = await h.app.inject({ method: 'POST', url: '/api/push/unsubscribe', headers: { cookie }, payload: { endpoint: good.endpoint } });
      expect(off.statusCode).toBe(200);
      expect(await h.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', good.endpoint).execute()).toHaveLength(0);
    });

    it('a genuine scan: a push that decrypts to the “opened” notice, and an e-mail; only the first opening', async () => {
      const h = get();
      const { cookie, email, device, livePath, gonePath } = await senderWithDevices(h);
      const giftId = await activeGift(h, cookie, { photo: photos.reference, recipientName: 'Maya' });
      // The payment confirmation e-mail (with the backup code) is the only job before the scan.
      expect(await h.jobs.runDue()).toBe(1);

      const scan = await directScan(h, giftId, photos.genuine);
      expect(scan.statusCode, scan.body).toBe(200);
      expect(json(scan)).toMatchObject({ success: true });
      await h.jobs.runDue();

      const [push] = pushesTo(livePath);
      expect(push).toBeDefined();
      expect(push!.headers['content-encoding']).toBe('aes128gcm');
      expect(String(push!.headers.authorization)).toMatch(/^vapid t=.+, k=/);
      expect(PushNotice.parse(device.decrypt(push!.body))).toEqual({
        title: 'Your gift was opened',
        body: 'Maya just opened your gift message.',
        url: `/share/${giftId}`,
        tag: `gift-${giftId}-opened`,
      });
      const mails = mailsTo(email);
      expect(mails.map((m) => m.subject)).toContain('Maya just opened your gift message');
      const notice = mails.find((m) => m.subject === 'Maya just opened your gift message')!;
      expect(notice.text).toContain(`${PUBLIC_ORIGIN}/share/${giftId}`);
      expect(notice.messageId).toMatch(/^<notice-opened\.[0-9a-f]{32}@giftlens\.test>$/);

      // The dropped device got its try, answered 410, and is forgotten.
      expect(pushesTo(gonePath)).toHaveLength(1);
      expect(await h.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', `${receiver.origin}${gonePath}`).execute()).toHaveLength(0);
      expect((await h.db.selectFrom('gifts').select('first_opened_at').where('id', '=', giftId).executeTakeFirstOrThrow()).first_opened_at).toBe(h.clock.now().toISOString());

      // A second opening tells nobody again.
      expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
      await h.jobs.runDue();
      expect(pushesTo(livePath)).toHaveLength(1);
      expect(mailsTo(email).filter((m) => m.subject === 'Maya just opened your gift message')).toHaveLength(1);
    });

    it('a failed scan tells nobody', async () => {
      const h = get();
      const { cookie, email, livePath } = await senderWithDevices(h);
      const giftId = await activeGift(h, cookie, { photo: photos.reference });
      await h.jobs.runDue(); // the payment confirmation
      const mailsBefore = mailsTo(email).length;
      const scan = await directScan(h, giftId, photos.impostor);
      expect(json(scan)).toMatchObject({ success: false });
      expect(await h.jobs.runDue()).toBe(0);
      expect(pushesTo(livePath)).toHaveLength(0);
      expect(mailsTo(email)).toHaveLength(mailsBefore);
    });

    it('a reaction: a push that decrypts to the “reaction” notice, and an e-mail', async () => {
      const h = get();
      const { cookie, email, device, livePath } = await senderWithDevices(h);
      const giftId = await activeGift(h, cookie, { planId: 'lifetime_us', photo: photos.reference, recipientName: 'Maya' });
      const grant = revealCookie(await directScan(h, giftId, photos.genuine), giftId) ?? '';
      await h.jobs.runDue();
      const opened = pushesTo(livePath).length;

      const post = (url: string, payload: object, headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url, payload, headers });
      const consent = json<PlayConsentResponse>(
        await post('/api/reactions/play-consent', { giftId, recipientName: 'Maya', mediaDuration: 12, playbackSessionId: 'playback-session-1' }, { cookie: grant }),
      );
      expect(consent.allowRecording).toBe(true);
      const reactionId = consent.data?.id ?? '';
      const device_ = { deviceInfo: { userAgent: 'Mozilla/5.0 (test)', platform: 'Linux', language: 'en-GB' }, browserInfo: { cookieEnabled: true, onLine: true } };
      expect((await post('/api/reactions/consent', { reactionId, consentGranted: true, ...device_ })).statusCode).toBe(200);
      expect((await post('/api/reactions/start-synced-recording', { reactionId, mediaStartTime: Date.now(), playbackSessionId: 'playback-session-1' })).statusCode).toBe(200);
      const body = multipart(
        { reactionId, recordingQuality: 'high', durationSeconds: '13', mediaEndTime: '12.5', syncOffsetMs: '40' },
        [{ name: 'reaction', filename: 'reaction.webm', type: 'video/webm', data: readFileSync(REACTION_WEBM) }],
      );
      const up = await h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: body.headers, payload: body.payload });
      expect(up.statusCode, up.body).toBe(200);
      await h.jobs.runDue();

      const pushes = pushesTo(livePath);
      expect(pushes).toHaveLength(opened + 1);
      expect(PushNotice.parse(device.decrypt(pushes.at(-1)!.body))).toEqual({
        title: 'A reaction arrived',
        body: 'Maya recorded a reaction to your gift message.',
        url: `/share/${giftId}`,
        tag: `gift-${giftId}-reaction`,
      });
      expect(mailsTo(email).map((m) => m.subject)).toContain('Maya recorded a reaction to your gift');
    });
  },
  harness,
);
