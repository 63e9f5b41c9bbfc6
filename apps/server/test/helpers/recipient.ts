import type { LightMyRequestResponse } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { GIFT_FIELDS, payGift, submitGift, uploadVideo } from './flows.ts';
import { json, signIn, uniqueEmail, type Harness } from './harness.ts';
import { GIFT_PHOTOS_DIR, multipart } from './media.ts';

const DATASET = path.join(GIFT_PHOTOS_DIR, 'covers');
export const REACTION_WEBM = path.resolve(import.meta.dirname, '../fixtures/tiny-reaction.webm');

export const datasetPhoto = (rel: string): Buffer => readFileSync(path.join(DATASET, rel));

/** A camera photo compressed exactly as the browser does before a scan: fit 600x600, JPEG quality 0.5. */
export async function scanOf(rel: string): Promise<Buffer> {
  return sharp(datasetPhoto(rel))
    .rotate()
    .resize(600, 600, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 50 })
    .toBuffer();
}

/** The photos every recipient test uses: gift 001's reference, a genuine scan of it, and another object. */
export async function scanPhotos() {
  return {
    reference: datasetPhoto('reference/001.jpg'),
    genuine: await scanOf('photos/001-canon.jpg'),
    impostor: await scanOf('photos/002-canon.jpg'),
  };
}

/** A sender's gift for `recipientEmail` on `planId`, with its photo enrolled, a video message, and paid. */
export async function activeGift(
  h: Harness,
  senderCookie: string,
  opts: { planId?: string; recipientEmail?: string; recipientName?: string; photo: Buffer; pay?: boolean },
) {
  const res = await submitGift(
    h,
    senderCookie,
    {
      ...GIFT_FIELDS,
      planId: opts.planId ?? GIFT_FIELDS.planId,
      recipientEmail: opts.recipientEmail ?? GIFT_FIELDS.recipientEmail,
      recipientName: opts.recipientName ?? GIFT_FIELDS.recipientName,
    },
    [opts.photo],
  );
  if (res.statusCode !== 200) throw new Error(`submit-gift failed: ${res.body}`);
  const { giftId } = json<{ giftId: string }>(res);
  await uploadVideo(h, senderCookie, giftId);
  if (opts.pay !== false) await payGift(h, senderCookie, giftId);
  return giftId;
}

/** A new sender's active Premium gift (10 reveals) of `photo` for a new recipient address. */
export async function newSendersGift(h: Harness, photo: Buffer) {
  const { cookie } = await signIn(h, uniqueEmail('sender'));
  return activeGift(h, cookie, { photo, recipientEmail: uniqueEmail('maya') });
}

export function scanBody(scan: Buffer, fields: Record<string, string>) {
  return multipart(fields, [{ name: 'scan', filename: 'scan.jpg', type: 'image/jpeg', data: scan }]);
}

export async function directScan(
  h: Harness,
  giftId: string,
  scan: Buffer,
  headers: Record<string, string> = {},
) {
  const body = scanBody(scan, { type: 'direct' });
  return h.app.inject({
    method: 'POST',
    url: `/api/verification-recipient/process-scan/${giftId}`,
    headers: { ...body.headers, ...headers },
    payload: body.payload,
  });
}

export async function recipientScan(h: Harness, cookie: string, recipientId: string, scan: Buffer) {
  const body = scanBody(scan, { recipient_id: recipientId });
  return h.app.inject({
    method: 'POST',
    url: '/api/verification-recipient/process-scan',
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}

/** The `name=value` of the cookie `name` set by a response, or null. */
export function setCookie(res: LightMyRequestResponse, name: string): string | null {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const found = all.find((c) => c.startsWith(`${name}=`));
  return found ? (found.split(';')[0] ?? null) : null;
}

export const revealCookie = (res: LightMyRequestResponse, giftId: string) =>
  setCookie(res, `gl_reveal_${giftId}`);

export async function sendRecipientCode(h: Harness, email: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/verification-recipient/send-otp',
    payload: { email, type: 'recipient' },
  });
}

export async function verifyRecipientCode(h: Harness, email: string, code: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/verification-recipient/verify-otp',
    payload: { email, code, type: 'recipient' },
  });
}

/** Code by e-mail → verify → the recipient session cookie and the verify-otp answer. */
export async function recipientSignIn(h: Harness, email: string) {
  const sent = await sendRecipientCode(h, email);
  if (sent.statusCode !== 200) throw new Error(`send-otp failed: ${sent.body}`);
  const res = await verifyRecipientCode(h, email, await h.readCode(email));
  if (res.statusCode !== 200) throw new Error(`verify-otp failed: ${res.body}`);
  const cookie = setCookie(res, 'gl_recipient');
  if (!cookie) throw new Error('no recipient cookie');
  return { cookie, ...json<{ recipientId: string; giftIds: string[]; isReady: boolean }>(res) };
}

/** A recipient with a reveal grant (`grant`, the cookie) agrees to record their reaction: the reaction's id. */
export async function consentedReaction(h: Harness, giftId: string, grant: string): Promise<string> {
  const post = (url: string, payload: object, headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url, payload, headers });
  const consent = json<{ data: { id: string } | null }>(
    await post('/api/reactions/play-consent', { giftId, recipientName: 'Maya', mediaDuration: 2, playbackSessionId: 'playback-session-1' }, { cookie: grant }),
  );
  const reactionId = consent.data?.id ?? '';
  const device = { deviceInfo: { userAgent: 'Mozilla/5.0 (test)', platform: 'Linux', language: 'en-GB' }, browserInfo: { cookieEnabled: true, onLine: true } };
  const agreed = await post('/api/reactions/consent', { reactionId, consentGranted: true, ...device });
  if (agreed.statusCode !== 200) throw new Error(`consent failed: ${agreed.body}`);
  return reactionId;
}
