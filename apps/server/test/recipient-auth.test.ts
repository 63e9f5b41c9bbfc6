import { texts } from '@giftlens/contract/texts';
import { type ScanResponse } from '@giftlens/contract/recipient';
import { beforeAll, expect } from 'vitest';
import { GIFT_FIELDS, submitGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail } from './helpers/harness.ts';
import {
  activeGift,
  datasetPhoto,
  recipientScan,
  recipientSignIn,
  revealCookie,
  scanOf,
  scanPhotos,
  sendRecipientCode,
  verifyRecipientCode,
} from './helpers/recipient.ts';

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

describeEachDatabase('recipient access: e-mail code, session, gift link, recipient flow', (get) => {
  let sender: string;
  /** Maya has two active gifts (the book cover and another object); Ravi has one of the same cover. */
  const maya = uniqueEmail('maya');
  const ravi = uniqueEmail('ravi');
  let mayaGift: string;
  let mayaOther: string;
  let raviGift: string;

  beforeAll(async () => {
    const h = get();
    sender = (await signIn(h, uniqueEmail('sender'), 'Asha')).cookie;
    mayaOther = await activeGift(h, sender, {
      photo: datasetPhoto('reference/002.jpg'),
      recipientEmail: maya,
      recipientName: 'Maya older',
    });
    h.clock.advance(1000);
    mayaGift = await activeGift(h, sender, { photo: photos.reference, recipientEmail: maya, recipientName: 'Maya' });
    raviGift = await activeGift(h, sender, { photo: photos.reference, recipientEmail: ravi, recipientName: 'Ravi' });
  });

  const post = (url: string, payload: Record<string, unknown>) => get().app.inject({ method: 'POST', url, payload });

  it('check-email: the same answer for an address with a gift and one without (issue 37)', async () => {
    const withGift = await post('/api/verification-recipient/check-email', { email: maya.toUpperCase() });
    const without = await post('/api/verification-recipient/check-email', { email: uniqueEmail('nobody') });
    expect(json(withGift)).toEqual({ success: true, exists: true });
    expect(without.statusCode).toBe(withGift.statusCode);
    expect(without.body).toBe(withGift.body);
    const bad = await post('/api/verification-recipient/check-email', { email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).error).toBe(texts.recipient.invalidEmail);
  });

  it('send-otp: the same answer for any address, a code mailed only to one with a gift; 30 s resend cooldown → 429 with retryAfter', async () => {
    const h = get();
    const strangerEmail = uniqueEmail('stranger');
    const stranger = await sendRecipientCode(h, strangerEmail);
    expect(stranger.statusCode).toBe(200);
    expect(json(stranger)).toEqual({ success: true, resendAfter: 30 });
    await expect(h.readCode(strangerEmail)).rejects.toThrow(/no code mailed/);
    const email = uniqueEmail('cool');
    await activeGift(h, sender, { photo: photos.reference, recipientEmail: email, pay: false });
    const first = await sendRecipientCode(h, email);
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual({ success: true, resendAfter: 30 });
    h.clock.advance(10_000);
    const again = await sendRecipientCode(h, email);
    expect(again.statusCode).toBe(429);
    expect(json(again)).toMatchObject({ success: false, error: texts.sender.resendTooEarly, retryAfter: 20 });
    h.clock.advance(20_000);
    expect((await sendRecipientCode(h, email)).statusCode).toBe(200);

    // Not paid yet: the code works, but the recipient is not ready.
    const verified = await verifyRecipientCode(h, email, await h.readCode(email));
    expect(verified.statusCode).toBe(200);
    expect(json(verified)).toMatchObject({ success: true, isReady: false, giftIds: [] });
  });

  it('verify-otp: wrong tries are limited, codes expire after 10 minutes', async () => {
    const h = get();
    const email = uniqueEmail('tries');
    await activeGift(h, sender, { photo: photos.reference, recipientEmail: email, pay: false });
    await sendRecipientCode(h, email);
    const code = await h.readCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect(json(await verifyRecipientCode(h, email, wrong)).error).toBe(texts.sender.invalidCode);
    expect(json(await verifyRecipientCode(h, email, wrong)).error).toBe(texts.sender.tooManyAttempts);
    // Even the right code is dead after 5 wrong tries.
    expect(json(await verifyRecipientCode(h, email, code)).error).toBe(texts.sender.tooManyAttempts);

    h.clock.advance(31_000);
    await sendRecipientCode(h, email);
    const fresh = await h.readCode(email);
    h.clock.advance(10 * 60 * 1000 + 1000);
    const late = await verifyRecipientCode(h, email, fresh);
    expect(late.statusCode).toBe(400);
    expect(json(late).error).toBe(texts.sender.codeExpired);
  });

  it('verify-otp starts a recipient session over that e-mail\'s active gifts; recipient/{id} is its own only', async () => {
    const h = get();
    const m = await recipientSignIn(h, maya);
    expect(m.isReady).toBe(true);
    expect(m.recipientId).toMatch(/^[0-9a-f]{32}$/);
    expect([...m.giftIds].sort()).toEqual([mayaGift, mayaOther].sort());
    // Stable per e-mail.
    h.clock.advance(31_000);
    expect((await recipientSignIn(h, maya)).recipientId).toBe(m.recipientId);

    const name = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/recipient/${m.recipientId}`, headers: { cookie: m.cookie } });
    expect(json(name)).toEqual({ success: true, name: 'Maya' });

    const r = await recipientSignIn(h, ravi);
    const foreign = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/recipient/${m.recipientId}`, headers: { cookie: r.cookie } });
    expect(foreign.statusCode).toBe(403);
    const anonymous = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/recipient/${m.recipientId}` });
    expect(anonymous.statusCode).toBe(401);
    // The sender cookie is not a recipient session.
    const asSender = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/recipient/${m.recipientId}`, headers: { cookie: sender } });
    expect(asSender.statusCode).toBe(401);
  });

  it('verify-gift: the gift link shows the greeting name and whether the gift is active', async () => {
    const h = get();
    const res = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${mayaGift}` });
    expect(json(res)).toEqual({ success: true, giftId: mayaGift, giftDetails: { recipientName: 'Maya', isActive: true, is_active: true, preparing: false } });
    const draft = json<{ giftId: string }>(await submitGift(h, sender, GIFT_FIELDS, [photos.reference])).giftId;
    const notReady = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${draft}` });
    expect(json(notReady)).toMatchObject({ success: true, giftDetails: { isActive: false, is_active: false } });
    const missing = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${'a'.repeat(32)}` });
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error).toBe('Gift not found');
  });

  it('recipient flow: matches among the session\'s own gifts only; another recipient id is refused', async () => {
    const h = get();
    h.clock.advance(31_000); // past the resend cooldown of the sign-ins above
    const m = await recipientSignIn(h, maya);
    const hit = await recipientScan(h, m.cookie, m.recipientId, photos.genuine);
    expect(hit.statusCode).toBe(200);
    const body = json<ScanResponse>(hit);
    expect(body).toMatchObject({ success: true, giftId: mayaGift, matchResult: { matched: true, giftId: mayaGift } });
    expect(body.giftDetails?.recipientName).toBe('Maya');
    expect(revealCookie(hit, mayaGift)).toBeTruthy();

    // A photo of her other gift reveals that one.
    const other = json<ScanResponse>(await recipientScan(h, m.cookie, m.recipientId, photos.impostor));
    expect(other).toMatchObject({ success: true, giftId: mayaOther });
    const miss = json<ScanResponse>(await recipientScan(h, m.cookie, m.recipientId, await scanOf('photos/003-canon.jpg')));
    expect(miss).toMatchObject({ success: false, error: texts.recipient.noMatch, giftDetails: null });

    // Ravi's session cannot scan as Maya, and Ravi's own scan can only ever reveal Ravi's gift.
    const r = await recipientSignIn(h, ravi);
    expect((await recipientScan(h, r.cookie, m.recipientId, photos.genuine)).statusCode).toBe(403);
    const own = json<ScanResponse>(await recipientScan(h, r.cookie, r.recipientId, photos.genuine));
    expect(own.giftId).toBe(raviGift);
    expect((await recipientScan(h, '', m.recipientId, photos.genuine)).statusCode).toBe(401);
  });
});
