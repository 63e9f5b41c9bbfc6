import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { staffApi, staffTexts, type StaffGiftResponse, type StaffJobsResponse, type StaffMembersResponse, type StaffVerifyResponse } from '@giftlens/contract/staff';
import { texts } from '@giftlens/contract/texts';
import type { LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import { authenticator } from 'otplib';
import { sql } from 'kysely';
import { afterAll, describe, expect } from 'vitest';
import { createRazorpayProvider, createTestPaymentProvider } from '../src/adapters/payments.ts';
import { createStripeCheckoutProvider } from '../src/adapters/stripe.ts';
import { runStaffCommand, STAFF_COMMAND_USAGE } from '../src/modules/staff/staff-command.ts';
import { orderFor, readyGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, SESSION_SECRET, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { giftPhoto, multipart } from './helpers/media.ts';
import { activeGift, directScan, revealCookie, scanPhotos } from './helpers/recipient.ts';
import { startStripeStandIn } from './helpers/stripe-stand-in.ts';

const STAFF = 'support@giftlens.test';
const OTHER_STAFF = 'ops@giftlens.test';
/** One staff address per test that signs in (each enrols its own authenticator). */
const TEAM = ['ana@giftlens.test', 'bo@giftlens.test', 'cy@giftlens.test', 'dee@giftlens.test', 'eve@giftlens.test', 'fay@giftlens.test'];

const post = (h: Harness, url: string, payload: unknown, cookie?: string) => h.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
const get = (h: Harness, url: string, cookie?: string) => h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
/** The `name=value` pairs a response set, as a Cookie header. */
const cookiesOf = (res: LightMyRequestResponse) =>
  (Array.isArray(res.headers['set-cookie']) ? res.headers['set-cookie'] : [res.headers['set-cookie'] ?? ''])
    .map((c) => String(c).split(';')[0])
    .filter((c) => c && !c.endsWith('='))
    .join('; ');
const totpAt = (h: Harness, secret: string) => authenticator.clone({ epoch: h.clock.now().getTime() }).generate(secret);

async function mailSubjectsTo(h: Harness, email: string): Promise<string[]> {
  const out: string[] = [];
  for (const f of (await readdir(h.outboxDir)).filter((x) => x.endsWith('.eml')).sort()) {
    const eml = await readFile(path.join(h.outboxDir, f), 'utf8');
    if (new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(eml)) out.push((await simpleParser(eml)).subject ?? '');
  }
  return out;
}

/** The whole first sign-in of a staff address: code, enrolment, first TOTP. Answers the session cookie and secret. */
async function enrol(h: Harness, email = STAFF) {
  expect((await post(h, staffApi.sendCode, { email })).statusCode).toBe(200);
  const code = await h.readCode(email);
  const res = await post(h, staffApi.verify, { email, code });
  expect(res.statusCode, res.body).toBe(200);
  const body = json<StaffVerifyResponse>(res);
  expect(body).toMatchObject({ signedIn: false, totpRequired: false });
  const enrolment = body.totpEnrolment!;
  expect(enrolment.otpauthUrl).toMatch(/^otpauth:\/\/totp\/GiftLens%20staff:/);
  expect(enrolment.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
  const enrolCookie = cookiesOf(res);
  expect(enrolCookie).toMatch(/gl_staff_enrol=/);
  const confirmed = await post(h, staffApi.totpConfirm, { totp: totpAt(h, enrolment.secret) }, enrolCookie);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const cookie = cookiesOf(confirmed);
  expect(cookie).toMatch(/^gl_staff=/);
  return { cookie, secret: enrolment.secret };
}

const reason = 'Customer wrote to support (ticket 1234)';

describeEachDatabase(
  'staff console: sign-in with a second factor, search, timeline and audited actions',
  (getH) => {
    it('enrols TOTP on the first sign-in, needs it on every later one, refuses a wrong or replayed code', async () => {
      const h = getH();
      const { cookie, secret } = await enrol(h);
      const me = await get(h, staffApi.me, cookie);
      expect(me.statusCode, me.body).toBe(200);
      expect(json(me)).toMatchObject({ email: STAFF });
      // The secret is stored sealed, never in the clear.
      const member = await h.db.selectFrom('staff_members').selectAll().where('email', '=', STAFF).executeTakeFirstOrThrow();
      expect(member.totp_secret).not.toContain(secret);
      expect(member.totp_confirmed_at).not.toBeNull();

      // Later: the e-mail code alone asks for the authenticator's; a wrong one is refused.
      h.clock.advance(61_000);
      await post(h, staffApi.sendCode, { email: STAFF });
      const code = await h.readCode(STAFF);
      const asks = json<StaffVerifyResponse>(await post(h, staffApi.verify, { email: STAFF, code }));
      expect(asks).toMatchObject({ signedIn: false, totpRequired: true, totpEnrolment: null });
      const wrongTotp = totpAt(h, secret) === '000000' ? '111111' : '000000';
      const wrong = await post(h, staffApi.verify, { email: STAFF, code, totp: wrongTotp });
      expect(wrong.statusCode).toBe(401);
      expect(json(wrong).error).toBe(staffTexts.totpInvalid);
      const ok = await post(h, staffApi.verify, { email: STAFF, code, totp: totpAt(h, secret) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(json<StaffVerifyResponse>(ok).signedIn).toBe(true);
      expect(cookiesOf(ok)).toMatch(/^gl_staff=/);
    });

    it('an address not in STAFF_EMAILS gets the same answers, no e-mail and never a session', async () => {
      const h = getH();
      const stranger = uniqueEmail('stranger');
      const sent = await post(h, staffApi.sendCode, { email: stranger });
      expect(sent.statusCode).toBe(200);
      expect(json(sent)).toEqual(json(await post(h, staffApi.sendCode, { email: OTHER_STAFF })));
      expect(await mailSubjectsTo(h, stranger)).toEqual([]);
      const again = await post(h, staffApi.sendCode, { email: stranger });
      expect(again.statusCode).toBe(429);
      for (const code of ['000000', '123456', '999999']) {
        const res = await post(h, staffApi.verify, { email: stranger, code });
        expect(res.statusCode).toBe(400);
        expect(cookiesOf(res)).toBe('');
      }
      // Its code row exists (same cost, same cooldown) but was never mailed: no code is ever right.
      expect(await h.db.selectFrom('verification_codes').select('id').where('purpose', '=', 'staff').where('destination', '=', stranger).execute()).toHaveLength(1);
    });

    it('no staff call works without a staff session; a sender’s session is a 403', async () => {
      const h = getH();
      const { cookie: sender } = await signIn(h);
      const calls = [
        ['GET', staffApi.me],
        ['GET', `${staffApi.gifts}?q=someone@example.com`],
        ['GET', staffApi.gift('a'.repeat(32))],
        ['POST', staffApi.extend('a'.repeat(32)), { days: 1, reason }],
        ['POST', staffApi.refund('a'.repeat(32)), { reason }],
        ['POST', staffApi.takedown('a'.repeat(32)), { reason }],
        ['POST', staffApi.message('a'.repeat(32)), { reason }],
        ['POST', staffApi.resend('a'.repeat(32), 'b'.repeat(32)), { reason }],
        ['GET', staffApi.jobs],
        ['POST', staffApi.retryJob('c'.repeat(32)), { reason }],
        ['GET', staffApi.audit],
        ['GET', staffApi.members],
        ['POST', staffApi.resetTotp, { email: STAFF, reason }],
      ] as const;
      for (const [method, url, payload] of calls) {
        const anonymous = await h.app.inject({ method, url, ...(payload ? { payload } : {}) });
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        const asSender = await h.app.inject({ method, url, headers: { cookie: sender }, ...(payload ? { payload } : {}) });
        expect(asSender.statusCode, `${method} ${url} as a sender`).toBe(403);
        expect(json(asSender).error).toBe(staffTexts.staffOnly);
      }
    });

    it('finds a gift by each key, reads its timeline, extends it, resends a failed delivery, refunds and takes down — each audited', async () => {
      const h = getH();
      const { cookie: staff } = await enrol(h, TEAM[0]);
      const { reference, genuine, impostor } = await scanPhotos();
      const senderEmail = uniqueEmail('sender');
      const recipientEmail = uniqueEmail('maya');
      const { cookie: sender } = await signIn(h, senderEmail);
      const giftId = await activeGift(h, sender, { photo: reference, recipientEmail });
      expect((await directScan(h, giftId, impostor)).statusCode).toBe(200);
      const revealed = await directScan(h, giftId, genuine);
      expect(revealed.statusCode).toBe(200);
      const grant = revealCookie(revealed, giftId)!;
      const order = await h.db.selectFrom('orders').selectAll().where('gift_id', '=', giftId).executeTakeFirstOrThrow();

      for (const q of [senderEmail, recipientEmail.toUpperCase(), giftId, order.id, order.provider_order_id, order.payment_id!]) {
        const res = await get(h, `${staffApi.gifts}?q=${encodeURIComponent(q)}`, staff);
        expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
        expect(json<{ gifts: { id: string }[] }>(res).gifts.map((g) => g.id), q).toContain(giftId);
      }
      expect((await get(h, `${staffApi.gifts}?q=ab`, staff)).statusCode).toBe(400);

      // A delivery that failed (its mail server refused it), sent again by staff.
      const scheduled = await post(h, '/api/scheduled-messages', { giftId, contactType: 'email', recipientContact: recipientEmail, scheduledDatetime: new Date(h.clock.now().getTime() + 3600_000).toISOString(), timezone: 'UTC' }, sender);
      expect(scheduled.statusCode, scheduled.body).toBe(200);
      const delivery = await h.db.selectFrom('scheduled_messages').selectAll().where('gift_id', '=', giftId).executeTakeFirstOrThrow();
      await h.db.updateTable('scheduled_messages').set({ status: 'failed', attempts: 6, last_error: '550 5.1.1 mailbox unavailable' }).where('id', '=', delivery.id).execute();

      let detail = json<StaffGiftResponse>(await get(h, staffApi.gift(giftId), staff));
      expect(detail.gift).toMatchObject({ id: giftId, senderEmail, recipientEmail, state: 'opened', scansUsed: 1, scansAllowed: 10 });
      const kinds = detail.timeline.map((e) => e.kind);
      for (const k of ['created', 'paid', 'scan', 'opened', 'delivery'] as const) expect(kinds, k).toContain(k);
      expect(detail.timeline.map((e) => e.summary).join('\n')).toMatch(/did not match[\s\S]*revealed the message/);
      expect(detail.timeline.map((e) => e.summary).join('\n')).toContain('550 5.1.1 mailbox unavailable');
      const times = detail.timeline.map((e) => e.at);
      expect([...times].sort()).toEqual(times);
      // Nothing of the message itself unless asked for with a reason.
      expect(JSON.stringify(detail)).not.toMatch(/\/media\//);

      const missingReason = await post(h, staffApi.extend(giftId), { days: 7 }, staff);
      expect(missingReason.statusCode).toBe(400);
      expect(json(missingReason).error).toBe(staffTexts.reasonRequired);
      expect(json(await post(h, staffApi.extend(giftId), { days: 366, reason }, staff)).error).toBe(staffTexts.extendRange);
      expect(json(await get(h, `${staffApi.gifts}?q=abc%00def`, staff)).error).toBe(staffTexts.queryInvalid);
      const extended = await post(h, staffApi.extend(giftId), { days: 7, scans: 5, reason }, staff);
      expect(extended.statusCode, extended.body).toBe(200);
      detail = json<StaffGiftResponse>(extended);
      expect(detail.gift.scansAllowed).toBe(15);
      const paidAt = Date.parse(detail.gift.paidAt!);
      expect(Date.parse(detail.gift.validUntil!)).toBe(paidAt + 37 * 24 * 3600_000);

      const resent = await post(h, staffApi.resend(giftId, delivery.id), { reason }, staff);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(json<StaffGiftResponse>(resent).gift.deliveries[0]).toMatchObject({ status: 'pending', error: null });
      await h.jobs.runDue();
      expect((await h.db.selectFrom('scheduled_messages').select('status').where('id', '=', delivery.id).executeTakeFirstOrThrow()).status).toBe('sent');
      expect((await post(h, staffApi.resend(giftId, 'f'.repeat(32)), { reason }, staff)).statusCode).toBe(404);

      const message = await post(h, staffApi.message(giftId), { reason: 'Abuse report 77: checking the video' }, staff);
      expect(message.statusCode).toBe(200);
      expect(json<{ messageUrl: string }>(message).messageUrl).toMatch(/\/media\//);

      const refunded = await post(h, staffApi.refund(giftId), { reason }, staff);
      expect(refunded.statusCode, refunded.body).toBe(200);
      expect(json<StaffGiftResponse>(refunded).gift).toMatchObject({ state: 'refunded' });
      expect(json<StaffGiftResponse>(refunded).gift.orders[0]).toMatchObject({ status: 'refunded' });
      expect((await post(h, staffApi.refund(giftId), { reason }, staff)).statusCode).toBe(409);
      // It no longer opens: its link says so, a scan is refused.
      const link = await get(h, `/api/verification-recipient/verify-gift/${giftId}`);
      expect(link.statusCode).toBe(410);
      expect(json(link).error).toBe(texts.recipient.giftUnavailable);
      expect((await directScan(h, giftId, genuine)).statusCode).toBe(410);
      // The reveal grant from before the refund opens nothing more.
      const afterRefund = await get(h, `/api/verification-recipient/gift-message/${giftId}`, grant);
      expect(afterRefund.statusCode).toBe(410);
      expect(json(afterRefund).error).toBe(texts.recipient.giftUnavailable);
      await h.jobs.runDue();
      expect(await mailSubjectsTo(h, senderEmail)).toContain('Your payment for Maya’s gift was refunded');

      // A cross-site call with the staff cookie is refused like a sender's.
      const crossSite = await h.app.inject({ method: 'POST', url: staffApi.takedown(giftId), payload: { reason }, headers: { cookie: staff, origin: 'https://evil.example' } });
      expect(crossSite.statusCode).toBe(403);
      const down = await post(h, staffApi.takedown(giftId), { reason: 'Abuse report 77: harassment' }, staff);
      expect(down.statusCode, down.body).toBe(200);
      expect(json<StaffGiftResponse>(down).gift.state).toBe('taken_down');
      await h.jobs.runDue();
      expect(await mailSubjectsTo(h, senderEmail)).toContain('Your gift for Maya is no longer available');

      const audit = json<{ entries: { action: string; staffEmail: string; reason: string }[] }>(await get(h, `${staffApi.audit}?giftId=${giftId}`, staff)).entries;
      expect(audit.map((a) => a.action).sort()).toEqual(['extend', 'open_message', 'refund', 'resend_delivery', 'take_down']);
      expect(audit.every((a) => a.staffEmail === TEAM[0])).toBe(true);
      const finalTimeline = json<StaffGiftResponse>(await get(h, staffApi.gift(giftId), staff)).timeline;
      expect(finalTimeline.filter((e) => e.kind === 'staff').map((e) => e.reason)).toContain('Abuse report 77: harassment');
      expect(finalTimeline.some((e) => e.kind === 'refund')).toBe(true);
    });

    it('a taken-down gift is frozen: every sender change, send, share, schedule and deletion is a 409; its media stops; only staff lift it (audited)', async () => {
      const h = getH();
      const { cookie: staff } = await enrol(h, TEAM[5]);
      const { cookie: sender } = await signIn(h);
      const giftId = await activeGift(h, sender, { photo: (await scanPhotos()).reference, recipientEmail: uniqueEmail('maya') });
      const inAnHour = () => new Date(h.clock.now().getTime() + 3600_000).toISOString();
      const scheduled = await post(h, '/api/scheduled-messages', { giftId, contactType: 'email', recipientContact: uniqueEmail('maya'), scheduledDatetime: inAnHour(), timezone: 'UTC' }, sender);
      expect(scheduled.statusCode, scheduled.body).toBe(200);
      const deliveryId = json<{ id: string }>(scheduled).id;
      const photoUrl = json<{ gift: { giftImageUrl: string } }>(await get(h, `/api/gift-sender/gifts/${giftId}`, sender)).gift.giftImageUrl;
      const messageUrl = json<{ messageUrl: string }>(await post(h, staffApi.message(giftId), { reason }, staff)).messageUrl;
      const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
      const before = await get(h, path(photoUrl));
      expect(before.statusCode, `${photoUrl} ${before.body}`).toBe(200);
      expect((await get(h, path(messageUrl))).statusCode).toBe(200);

      expect((await post(h, staffApi.takedown(giftId), { reason: 'Abuse report 78' }, staff)).statusCode).toBe(200);

      const attempts: [string, string, string, unknown][] = [
        ['replace the message', 'POST', '/api/gift-sender/save-text-message', { giftId, text: 'Replaced' }],
        ['a new upload', 'POST', '/api/gift-sender/generate-upload-url', { giftId, fileType: 'video/mp4', fileName: 'm.mp4', messageType: 'video' }],
        ['send it now', 'POST', '/api/scheduled-messages/send-now', { giftId, contactType: 'email', recipientContact: uniqueEmail('other') }],
        ['schedule it', 'POST', '/api/scheduled-messages', { giftId, contactType: 'email', recipientContact: uniqueEmail('other'), scheduledDatetime: inAnHour(), timezone: 'UTC' }],
        ['move a delivery', 'PATCH', `/api/scheduled-messages/${deliveryId}`, { recipientContact: uniqueEmail('other') }],
        ['cancel a delivery', 'DELETE', `/api/scheduled-messages/${deliveryId}`, undefined],
        ['share it with contributors', 'POST', `/api/gift-sender/gifts/${giftId}/invitations`, { emails: [uniqueEmail('friend')] }],
        ['a new backup code', 'POST', `/api/gift-sender/gifts/${giftId}/backup-code`, undefined],
        ['delete the gift', 'DELETE', `/api/gift-sender/gifts/${giftId}`, undefined],
        ['delete the account', 'DELETE', '/api/gift-sender/account', undefined],
      ];
      for (const [what, method, url, payload] of attempts) {
        const res = await h.app.inject({ method: method as 'POST', url, headers: { cookie: sender }, ...(payload === undefined ? {} : { payload: payload as object }) });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(409);
        expect(json(res), what).toMatchObject({ code: 'gift_taken_down', error: texts.sender.giftTakenDown });
      }
      const form = multipart({}, [{ name: 'giftImage', filename: 'more.jpg', type: 'image/jpeg', data: giftPhoto() }]);
      const photo = await h.app.inject({ method: 'POST', url: `/api/gift-sender/gifts/${giftId}/photos`, headers: { cookie: sender, ...form.headers }, payload: form.payload });
      expect(photo.statusCode, photo.body).toBe(409);
      expect(json(photo)).toMatchObject({ code: 'gift_taken_down' });
      // Nothing changed: the gift, its message and its delivery are as staff found them.
      expect((await h.db.selectFrom('gifts').select(['id', 'message_type']).where('id', '=', giftId).executeTakeFirstOrThrow()).message_type).toBe('video');
      // My Gifts says so, and offers no change (issue 37, honest states).
      const listed = json<{ gifts: { id: string; withdrawn?: string; canReplaceMessage: boolean }[] }>(await get(h, '/api/gift-sender/gifts', sender)).gifts.find((g) => g.id === giftId);
      expect(listed).toMatchObject({ withdrawn: 'taken_down', canReplaceMessage: false });
      // Media links stop at once, even those signed before.
      expect((await get(h, path(photoUrl))).statusCode).toBe(410);
      expect((await get(h, path(messageUrl))).statusCode).toBe(410);
      // The delivery scheduled before is not sent when it comes due.
      h.clock.advance(2 * 3600_000);
      await h.jobs.runDue();
      expect((await h.db.selectFrom('scheduled_messages').select('status').where('id', '=', deliveryId).executeTakeFirstOrThrow()).status).toBe('failed');

      // Only staff lift it, with a reason, audited; then the sender may act again.
      expect((await post(h, staffApi.liftTakedown(giftId), { reason: 'Appeal upheld' }, sender)).statusCode).toBe(403);
      const lifted = await post(h, staffApi.liftTakedown(giftId), { reason: 'Appeal upheld (ticket 99)' }, staff);
      expect(lifted.statusCode, lifted.body).toBe(200);
      expect(json<StaffGiftResponse>(lifted).gift.state).not.toBe('taken_down');
      expect((await post(h, staffApi.liftTakedown(giftId), { reason: 'Again' }, staff)).statusCode).toBe(409);
      const audit = json<{ entries: { action: string; reason: string }[] }>(await get(h, `${staffApi.audit}?giftId=${giftId}`, staff)).entries;
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['take_down', 'lift_take_down']));
      const fresh = json<{ gift: { giftImageUrl: string } }>(await get(h, `/api/gift-sender/gifts/${giftId}`, sender)).gift.giftImageUrl;
      expect((await get(h, path(fresh))).statusCode).toBe(200);
      expect((await h.app.inject({ method: 'DELETE', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie: sender } })).statusCode).toBe(200);
    });

    it('the queue view counts jobs and shows a dead one, which a retry runs again (audited)', async () => {
      const h = getH();
      const { cookie: staff } = await enrol(h, TEAM[1]);
      const { cookie: sender } = await signIn(h);
      const giftId = await activeGift(h, sender, { photo: (await scanPhotos()).reference });
      await h.jobs.runDue();
      const job = await h.db.selectFrom('jobs').selectAll().where('gift_id', '=', giftId).where('kind', '=', 'payment.confirmation').executeTakeFirstOrThrow();
      await h.db.updateTable('jobs').set({ status: 'dead', last_error: 'SMTP 421 try later', finished_at: h.clock.now().toISOString() }).where('id', '=', job.id).execute();
      const queue = json<StaffJobsResponse>(await get(h, staffApi.jobs, staff));
      expect(queue.dead.find((d) => d.id === job.id)).toMatchObject({ kind: 'payment.confirmation', lastError: 'SMTP 421 try later', giftId });
      expect(queue.counts).toContainEqual({ kind: 'payment.confirmation', status: 'dead', count: 1 });
      expect((await post(h, staffApi.retryJob(job.id), { reason: 'Mail relay is back' }, staff)).statusCode).toBe(200);
      expect((await post(h, staffApi.retryJob(job.id), { reason: 'Mail relay is back' }, staff)).statusCode).toBe(409);
      await h.jobs.runDue();
      expect((await h.db.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow()).status).toBe('done');
    });

    it('resets a colleague’s lost second factor: audited, their sessions end, they are told, and they enrol again; never one’s own', async () => {
      const h = getH();
      const { cookie: staff } = await enrol(h, TEAM[2]);
      const lost = await enrol(h, TEAM[3]);
      const team = json<StaffMembersResponse>(await get(h, staffApi.members, staff)).members;
      expect(team.map((m) => m.email)).toEqual([STAFF, OTHER_STAFF, ...TEAM].sort());
      expect(team.find((m) => m.email === TEAM[2])).toMatchObject({ enrolled: true, you: true });
      expect(team.find((m) => m.email === TEAM[3])).toMatchObject({ enrolled: true, you: false });
      expect(team.find((m) => m.email === TEAM[3])!.enrolledAt).not.toBeNull();

      // Refused, and nothing changes: one's own, an address that is not staff, no reason.
      const written = async () => ({
        audit: (await h.db.selectFrom('staff_audit').select('id').where('action', '=', 'reset_second_factor').execute()).length,
        notices: (await h.db.selectFrom('jobs').select('id').where('kind', '=', 'staff.member_notice').execute()).length,
      });
      const before = await written();
      const own = await post(h, staffApi.resetTotp, { email: TEAM[2], reason }, staff);
      expect(own.statusCode).toBe(409);
      expect(json(own).error).toBe(staffTexts.ownSecondFactor);
      const stranger = await post(h, staffApi.resetTotp, { email: uniqueEmail('stranger'), reason }, staff);
      expect(stranger.statusCode).toBe(404);
      expect(json(stranger).error).toBe(staffTexts.memberNotFound);
      const noReason = await post(h, staffApi.resetTotp, { email: TEAM[3], reason: ' ' }, staff);
      expect(noReason.statusCode).toBe(400);
      expect(json(noReason).error).toBe(staffTexts.reasonRequired);
      const notAnAddress = await post(h, staffApi.resetTotp, { email: 'not-an-address', reason }, staff);
      expect(notAnAddress.statusCode).toBe(400);
      expect(json(notAnAddress).error).toBe(texts.sender.invalidEmail);
      expect((await get(h, staffApi.me, lost.cookie)).statusCode).toBe(200);
      expect(await written()).toEqual(before);
      expect(json<StaffMembersResponse>(await get(h, staffApi.members, staff)).members.find((m) => m.email === TEAM[3])).toMatchObject({ enrolled: true });

      // The reset (the address as typed: trimmed and lowercased like every e-mail).
      const done = await post(h, staffApi.resetTotp, { email: ` ${TEAM[3]!.toUpperCase()}`, reason: 'Lost phone, ticket 88' }, staff);
      expect(done.statusCode, done.body).toBe(200);
      expect(json<StaffMembersResponse>(done).members.find((m) => m.email === TEAM[3])).toMatchObject({ enrolled: false, enrolledAt: null });
      expect((await get(h, staffApi.me, lost.cookie)).statusCode).toBe(401);
      expect((await get(h, staffApi.me, staff)).statusCode).toBe(200);
      const entry = json<{ entries: { action: string; staffEmail: string; reason: string; giftId: string | null; details: string }[] }>(await get(h, staffApi.audit, staff)).entries.find((e) => e.action === 'reset_second_factor')!;
      expect(entry).toMatchObject({ action: 'reset_second_factor', staffEmail: TEAM[2], reason: 'Lost phone, ticket 88', giftId: null });
      expect(JSON.parse(entry.details)).toEqual({ member: TEAM[3], secretForgotten: true, sessionsEnded: 1 });
      await h.jobs.runDue();
      expect(await mailSubjectsTo(h, TEAM[3]!)).toContain('Your GiftLens staff authenticator was reset');

      // The old authenticator opens nothing: the next sign-in enrols a new one (after an e-mail code).
      h.clock.advance(61_000);
      expect((await post(h, staffApi.sendCode, { email: TEAM[3] })).statusCode).toBe(200);
      const code = await h.readCode(TEAM[3]!);
      const again = await post(h, staffApi.verify, { email: TEAM[3], code, totp: totpAt(h, lost.secret) });
      expect(again.statusCode, again.body).toBe(200);
      const body = json<StaffVerifyResponse>(again);
      expect(body.signedIn).toBe(false);
      expect(body.totpEnrolment!.secret).not.toBe(lost.secret);
      expect(cookiesOf(again)).not.toMatch(/gl_staff=/);

      // A member stopped half-way through enrolling: the reset ends that enrolment too.
      expect((await post(h, staffApi.sendCode, { email: TEAM[4] })).statusCode).toBe(200);
      const started = await post(h, staffApi.verify, { email: TEAM[4], code: await h.readCode(TEAM[4]!) });
      const pending = json<StaffVerifyResponse>(started).totpEnrolment!;
      const enrolCookie = cookiesOf(started);
      expect(enrolCookie).toMatch(/gl_staff_enrol=/);
      expect((await post(h, staffApi.resetTotp, { email: TEAM[4], reason: 'Set up on the wrong phone' }, staff)).statusCode).toBe(200);
      const late = await post(h, staffApi.totpConfirm, { totp: totpAt(h, pending.secret) }, enrolCookie);
      expect(late.statusCode).toBe(401);
      expect(json(late).error).toBe(staffTexts.enrolmentExpired);
      expect(cookiesOf(late)).not.toMatch(/gl_staff=/);
    });
  },
  { staffEmails: [STAFF, OTHER_STAFF, ...TEAM] },
);

const SOLO = 'solo@giftlens.test';
const OPERATOR = 'operator ops (command line)';

describeEachDatabase(
  'the operator’s command resets the second factor of a team of one',
  (getH) => {
    it('refuses what the console refuses, then resets: sessions end, the audit names the operator, the member is e-mailed', async () => {
      const h = getH();
      const lost = await enrol(h, SOLO);
      const said: string[] = [];
      const run = (...argv: string[]) =>
        runStaffCommand(argv, { db: h.db, now: () => h.clock.now(), staffEmails: [SOLO], operator: OPERATOR, out: (l) => said.push(l), err: (l) => said.push(l) });
      const written = async () => ({
        audit: (await h.db.selectFrom('staff_audit').select('id').where('action', '=', 'reset_second_factor').execute()).length,
        notices: (await h.db.selectFrom('jobs').select('id').where('kind', '=', 'staff.member_notice').execute()).length,
      });

      // Refused, and nothing changes: no reason, not staff, not an address, no address, another command, an unknown option.
      const refusals: [string[], string][] = [
        [['reset-totp', SOLO], staffTexts.reasonRequired],
        [['reset-totp', SOLO, '--reason', '  '], staffTexts.reasonRequired],
        [['reset-totp', uniqueEmail('stranger'), '--reason', reason], staffTexts.memberNotFound],
        [['reset-totp', 'not-an-address', '--reason', reason], texts.sender.invalidEmail],
        [['reset-totp', '--reason', reason], 'Give one e-mail address.'],
        [['reset-password', SOLO, '--reason', reason], STAFF_COMMAND_USAGE],
        [['reset-totp', SOLO, '--reason', reason, '--force'], "Unknown option '--force'"],
      ];
      for (const [argv, message] of refusals) {
        said.length = 0;
        expect(await run(...argv), argv.join(' ')).toBe(2);
        expect(said.join('\n'), argv.join(' ')).toContain(message);
      }
      expect(await written()).toEqual({ audit: 0, notices: 0 });
      expect((await get(h, staffApi.me, lost.cookie)).statusCode).toBe(200);

      // The reset (the address as typed: trimmed and lowercased like every e-mail).
      said.length = 0;
      expect(await run('reset-totp', ` ${SOLO.toUpperCase()}`, '--reason', 'Lost phone; the only member')).toBe(0);
      expect(said.join('\n')).toContain(`Reset the second factor of ${SOLO}: their authenticator is forgotten, 1 staff session ended.`);
      expect((await get(h, staffApi.me, lost.cookie)).statusCode).toBe(401);
      const entry = await h.db.selectFrom('staff_audit').selectAll().where('action', '=', 'reset_second_factor').executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ staff_email: OPERATOR, reason: 'Lost phone; the only member', gift_id: null });
      expect(JSON.parse(entry.details!)).toEqual({ member: SOLO, secretForgotten: true, sessionsEnded: 1 });
      await h.jobs.runDue();
      expect(await mailSubjectsTo(h, SOLO)).toContain('Your GiftLens staff authenticator was reset');

      // The old authenticator opens nothing: the next sign-in enrols a new one.
      h.clock.advance(61_000);
      expect((await post(h, staffApi.sendCode, { email: SOLO })).statusCode).toBe(200);
      const again = await post(h, staffApi.verify, { email: SOLO, code: await h.readCode(SOLO), totp: totpAt(h, lost.secret) });
      expect(again.statusCode, again.body).toBe(200);
      expect(json<StaffVerifyResponse>(again)).toMatchObject({ signedIn: false });
      expect(json<StaffVerifyResponse>(again).totpEnrolment!.secret).not.toBe(lost.secret);

      // Run again on a member with nothing left but that enrolment: it ends it; a third run finds nothing and says so,
      // audited, without an e-mail.
      expect(await run('reset-totp', SOLO, '--reason', 'Twice, to be sure')).toBe(0);
      said.length = 0;
      expect(await run('reset-totp', SOLO, '--reason', 'Three times')).toBe(0);
      expect(said.join('\n')).toContain('nothing to reset');
      expect(await written()).toEqual({ audit: 3, notices: 2 });
    });
  },
  { staffEmails: [SOLO] },
);

describeEachDatabase('staff console switched off', (getH) => {
  it('without STAFF_EMAILS every staff call is a 404', async () => {
    const h = getH();
    expect((await post(h, staffApi.sendCode, { email: STAFF })).statusCode).toBe(404);
    expect((await get(h, staffApi.jobs)).statusCode).toBe(404);
  });
});

// Refunds through each real provider's adapter, against loopback stand-ins.
const stripeStandIn = await startStripeStandIn();
afterAll(() => stripeStandIn.close());
const stripe = createStripeCheckoutProvider({ secretKey: stripeStandIn.secretKey, webhookSecret: stripeStandIn.webhookSecret, apiUrl: stripeStandIn.url });

describeEachDatabase(
  'staff refunds through Stripe',
  (getH) => {
    it('refunds the PaymentIntent in full through Stripe and records its refund id', async () => {
      const h = getH();
      const { cookie: staff } = await enrol(h);
      const { cookie, giftId } = await readyGift(h, 'lifetime_us');
      const created = await orderFor(h, cookie, giftId);
      const paid = stripeStandIn.pay(created.orderId);
      expect((await post(h, '/api/payment/verify-checkout-session', { sessionId: created.orderId })).statusCode).toBe(200);
      const res = await post(h, staffApi.refund(giftId), { reason }, staff);
      expect(res.statusCode, res.body).toBe(200);
      const call = stripeStandIn.requests.findLast((r) => r.path === '/v1/refunds');
      expect(call?.form.get('payment_intent')).toBe(paid.payment_intent);
      expect(call?.headers['idempotency-key']).toBe(`giftlens-refund-${paid.payment_intent}`);
      const order = await h.db.selectFrom('orders').selectAll().where('gift_id', '=', giftId).executeTakeFirstOrThrow();
      expect(order.refund_id).toMatch(/^re_/);
      // Stripe down: nothing changes, the staff member is told.
      const { cookie: c2, giftId: g2 } = await readyGift(h, 'lifetime_us');
      const o2 = await orderFor(h, c2, g2);
      stripeStandIn.pay(o2.orderId);
      await post(h, '/api/payment/verify-checkout-session', { sessionId: o2.orderId });
      stripeStandIn.failWith = 500;
      try {
        const refused = await post(h, staffApi.refund(g2), { reason }, staff);
        expect(refused.statusCode).toBe(502);
        expect(json(refused).error).toBe(staffTexts.refundFailed);
      } finally {
        stripeStandIn.failWith = null;
      }
      // The marks made before asking Stripe are taken back; the audit keeps both steps.
      expect((await h.db.selectFrom('gifts').select('refunded_at').where('id', '=', g2).executeTakeFirstOrThrow()).refunded_at).toBeNull();
      expect((await h.db.selectFrom('orders').select('refunded_at').where('gift_id', '=', g2).executeTakeFirstOrThrow()).refunded_at).toBeNull();
      expect((await h.db.selectFrom('staff_audit').select('action').where('gift_id', '=', g2).orderBy('created_at').execute()).map((a) => a.action)).toEqual(['refund', 'refund_failed']);

      // The database refuses the change (issue 37): the provider is never asked, so no money moves.
      const { cookie: c3, giftId: g3 } = await readyGift(h, 'lifetime_us');
      const o3 = await orderFor(h, c3, g3);
      stripeStandIn.pay(o3.orderId);
      await post(h, '/api/payment/verify-checkout-session', { sessionId: o3.orderId });
      const refundsBefore = stripeStandIn.requests.filter((r) => r.path === '/v1/refunds').length;
      if (h.target === 'postgres') {
        await sql`create function refuse_refund() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(h.db);
        await sql`create trigger refuse_refund before update on orders for each row execute function refuse_refund()`.execute(h.db);
      } else {
        await sql`create trigger refuse_refund before update on orders begin select raise(abort, 'refused'); end`.execute(h.db);
      }
      try {
        expect((await post(h, staffApi.refund(g3), { reason }, staff)).statusCode).toBe(500);
      } finally {
        await sql`drop trigger refuse_refund${h.target === 'postgres' ? sql` on orders` : sql``}`.execute(h.db);
      }
      expect(stripeStandIn.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(refundsBefore);
      expect((await h.db.selectFrom('gifts').select('refunded_at').where('id', '=', g3).executeTakeFirstOrThrow()).refunded_at).toBeNull();
    });
  },
  { staffEmails: [STAFF], payments: { INR: createTestPaymentProvider(SESSION_SECRET), USD: stripe } },
);

// Razorpay's API as a loopback stand-in: orders, and refunds of a payment (recorded for the assertions).
const razorpaySeen: { url: string; body: string }[] = [];
const razorpayServer = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    razorpaySeen.push({ url: req.url ?? '', body });
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/v1/orders') return res.end(JSON.stringify({ id: `order_RZP${razorpaySeen.length.toString().padStart(11, '0')}` }));
    const refund = /^\/v1\/payments\/([^/]+)\/refund$/.exec(req.url ?? '');
    res.end(JSON.stringify(refund ? { id: 'rfnd_RZPSTANDIN01', payment_id: refund[1] } : {}));
  });
});
await new Promise<void>((resolve) => razorpayServer.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => razorpayServer.close(() => resolve())));
const razorpayKeys = { keyId: 'rzp_test_key', keySecret: 'rzp_secret', webhookSecret: 'wh_secret' };
const razorpay = createRazorpayProvider(razorpayKeys, fetch, `http://127.0.0.1:${(razorpayServer.address() as AddressInfo).port}`);

describeEachDatabase(
  'staff refunds through Razorpay',
  (getH) => {
    it('refunds the captured payment in full through Razorpay; the gift no longer opens', async () => {
      const h = getH();
      const { cookie: staff } = await enrol(h);
      const { cookie, giftId } = await readyGift(h, 'premium_in');
      const created = await orderFor(h, cookie, giftId);
      const paymentId = 'pay_RZPSTANDIN0001';
      const signature = createHmac('sha256', razorpayKeys.keySecret).update(`${created.orderId}|${paymentId}`).digest('hex');
      const paid = await post(h, '/api/payment/verify-payment-callback', { orderId: created.orderId, paymentId, signature });
      expect(paid.statusCode, paid.body).toBe(200);
      const res = await post(h, staffApi.refund(giftId), { reason }, staff);
      expect(res.statusCode, res.body).toBe(200);
      const call = razorpaySeen.findLast((r) => r.url.endsWith('/refund'));
      expect(call?.url).toBe(`/v1/payments/${paymentId}/refund`);
      expect(JSON.parse(call!.body)).toEqual({ amount: 9900, speed: 'normal' });
      const order = await h.db.selectFrom('orders').selectAll().where('gift_id', '=', giftId).executeTakeFirstOrThrow();
      expect(order).toMatchObject({ refund_id: 'rfnd_RZPSTANDIN01', payment_id: paymentId });
      expect((await get(h, `/api/verification-recipient/verify-gift/${giftId}`)).statusCode).toBe(410);
    });
  },
  { staffEmails: [STAFF], payments: { INR: razorpay, USD: createTestPaymentProvider(SESSION_SECRET) } },
);

describe('Razorpay refunds', () => {
  it('POSTs a full refund of the payment with basic auth, and fails loudly when Razorpay refuses', async () => {
    const seen: { url?: string; body?: string; auth?: string }[] = [];
    let status = 200;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ url: req.url, body, auth: req.headers.authorization });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 200 ? JSON.stringify({ id: 'rfnd_RZP0000001', payment_id: 'pay_X', amount: 9900 }) : '{"error":{"code":"BAD_REQUEST_ERROR"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const provider = createRazorpayProvider({ keyId: 'rzp_test_key', keySecret: 'rzp_secret', webhookSecret: 'w' }, fetch, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(await provider.refund('pay_X', 9900)).toEqual({ refundId: 'rfnd_RZP0000001' });
      expect(seen[0]).toMatchObject({ url: '/v1/payments/pay_X/refund', auth: `Basic ${Buffer.from('rzp_test_key:rzp_secret').toString('base64')}` });
      expect(JSON.parse(seen[0]!.body!)).toEqual({ amount: 9900, speed: 'normal' });
      status = 400;
      await expect(provider.refund('pay_X', 9900)).rejects.toThrow(/HTTP 400/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
