import { texts } from '@giftlens/contract/texts';
import { DeliveriesResponse, DeliveryResponse, ScheduleResponse } from '@giftlens/contract/scheduling';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect } from 'vitest';
import { createSmtpMailer } from '../src/adapters/mail.ts';
import { createWhatsAppCloud } from '../src/adapters/whatsapp.ts';
import { backoffMs, RETRY_POLICIES } from '../src/jobs/kinds.ts';
import { paidGift as paidGiftWithJobs } from './helpers/flows.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { startTestSmtp } from './helpers/smtp.ts';

const smtp = await startTestSmtp();
afterAll(() => smtp.close());
const smtpMailer = () => createSmtpMailer(smtp.url, 'GiftLens <no-reply@giftlens.test>');

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A paid gift whose payment confirmation e-mail (with its backup code) has gone: the jobs then are the deliveries'. */
async function paidGift(h: Harness, cookie: string): Promise<string> {
  const giftId = await paidGiftWithJobs(h, cookie);
  await h.jobs.runDue();
  return giftId;
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address);

function schedule(h: Harness, cookie: string, payload: Record<string, unknown>) {
  return h.app.inject({ method: 'POST', url: '/api/scheduled-messages', headers: { cookie }, payload });
}
const inOneHour = (h: Harness, extraMs = 0) => new Date(h.clock.now().getTime() + HOUR + extraMs).toISOString();

async function scheduleEmail(h: Harness, cookie: string, giftId: string, to: string, at: string) {
  const res = await schedule(h, cookie, {
    giftId,
    recipientContact: to,
    contactType: 'email',
    scheduledDatetime: at,
    timezone: 'Asia/Kolkata',
  });
  expect(res.statusCode, res.body).toBe(200);
  return ScheduleResponse.parse(json(res)).id;
}

async function list(h: Harness, cookie: string, giftId: string) {
  const res = await h.app.inject({ method: 'GET', url: `/api/scheduled-messages?giftId=${giftId}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return DeliveriesResponse.parse(json(res));
}

const change = (h: Harness, cookie: string, id: string, payload: Record<string, unknown>) =>
  h.app.inject({ method: 'PATCH', url: `/api/scheduled-messages/${id}`, headers: { cookie }, payload });
const cancel = (h: Harness, cookie: string, id: string) =>
  h.app.inject({ method: 'DELETE', url: `/api/scheduled-messages/${id}`, headers: { cookie } });

const jobOf = (h: Harness, deliveryId: string) =>
  h.db.selectFrom('jobs').selectAll().where('key', '=', `delivery:${deliveryId}`).executeTakeFirstOrThrow();

describeEachDatabase(
  'deliveries go out at their instant',
  (get) => {
    it('a delivery due now is sent once, with the link, a plain-text part and a stable Message-ID', async () => {
      const h = get();
      const { cookie } = await signIn(h, uniqueEmail(), 'Asha');
      const giftId = await paidGift(h, cookie);
      const to = uniqueEmail('maya');
      const id = await scheduleEmail(h, cookie, giftId, to, inOneHour(h));

      expect(await h.jobs.runDue()).toBe(0);
      h.clock.advance(HOUR - 1000);
      await h.jobs.runDue();
      expect(mailsTo(to)).toHaveLength(0);

      h.clock.advance(1000);
      expect(await h.jobs.runDue()).toBe(1);
      await smtp.waitFor(1);
      const [mail] = mailsTo(to);
      const job = await jobOf(h, id);
      expect(mail?.subject).toBe('You have a gift message from Asha');
      expect(mail?.messageId).toBe(`<delivery.${job.id}@giftlens.test>`);
      const link = `${PUBLIC_ORIGIN}/sharelink/${giftId}`;
      expect(mail?.text).toContain('Hi Maya!');
      expect(mail?.text).toContain(link);
      expect(mail?.text).toMatch(/photograph the gift/);
      expect(mail?.html).toContain(`href="${link}"`);
      expect(mail?.html).toContain('name="viewport"');
      expect(mail?.html).not.toMatch(/<img/i);
      expect(job).toMatchObject({ status: 'done', attempts: 1 });

      // Running again, or the same job claimed again after a crash, sends nothing more.
      expect(await h.jobs.runDue()).toBe(0);
      await h.db.updateTable('jobs').set({ status: 'queued', run_at: h.clock.now().toISOString() }).where('id', '=', job.id).execute();
      expect(await h.jobs.runDue()).toBe(1);
      expect(mailsTo(to)).toHaveLength(1);

      const { deliveries } = await list(h, cookie, giftId);
      expect(deliveries).toEqual([
        expect.objectContaining({ id, status: 'sent', sentAt: h.clock.now().toISOString(), recipientContact: to, timezone: 'Asia/Kolkata' }),
      ]);
      expect((await change(h, cookie, id, { recipientContact: uniqueEmail() })).statusCode).toBe(409);
      const cancelled = await cancel(h, cookie, id);
      expect(cancelled.statusCode).toBe(409);
      expect(json(cancelled).error).toBe(texts.sender.deliveryAlreadySent);
    });

    it('a cancelled delivery is never sent, and stays cancelled', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      const to = uniqueEmail('maya');
      const id = await scheduleEmail(h, cookie, giftId, to, inOneHour(h));
      const res = await cancel(h, cookie, id);
      expect(res.statusCode, res.body).toBe(200);
      expect(DeliveryResponse.parse(json(res)).delivery.status).toBe('cancelled');
      expect((await jobOf(h, id)).status).toBe('cancelled');

      h.clock.advance(2 * HOUR);
      await h.jobs.runDue();
      // Even a job claimed before the cancel landed finds the delivery cancelled.
      await h.db.updateTable('jobs').set({ status: 'queued' }).where('key', '=', `delivery:${id}`).execute();
      await h.jobs.runDue();
      expect(mailsTo(to)).toHaveLength(0);
      const again = await cancel(h, cookie, id);
      expect(again.statusCode).toBe(409);
      expect(json(again).error).toBe(texts.sender.deliveryCancelled);
      expect((await change(h, cookie, id, { scheduledDatetime: inOneHour(h) })).statusCode).toBe(409);
    });

    it('a changed instant is honoured, later or earlier, and a changed contact gets the mail', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      const first = uniqueEmail('first');
      const second = uniqueEmail('second');
      const id = await scheduleEmail(h, cookie, giftId, first, inOneHour(h));

      const later = await change(h, cookie, id, { scheduledDatetime: inOneHour(h, HOUR), timezone: 'Europe/London' });
      expect(later.statusCode, later.body).toBe(200);
      expect(DeliveryResponse.parse(json(later)).delivery).toMatchObject({ status: 'pending', timezone: 'Europe/London' });
      h.clock.advance(HOUR);
      await h.jobs.runDue();
      expect(mailsTo(first)).toHaveLength(0);

      // Earlier again, and to another address: 30 minutes from now.
      const earlier = new Date(h.clock.now().getTime() + 30 * MINUTE).toISOString();
      expect((await change(h, cookie, id, { scheduledDatetime: earlier, recipientContact: second })).statusCode).toBe(200);
      h.clock.advance(30 * MINUTE);
      await h.jobs.runDue();
      expect(mailsTo(first)).toHaveLength(0);
      expect(mailsTo(second)).toHaveLength(1);
      expect((await list(h, cookie, giftId)).deliveries[0]).toMatchObject({ status: 'sent', recipientContact: second });
    });

    it('a claimed job whose instant moved meanwhile waits for the new instant', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      const to = uniqueEmail('maya');
      const id = await scheduleEmail(h, cookie, giftId, to, inOneHour(h));
      h.clock.advance(HOUR);
      // The worker claimed the job (it is running, so the change cannot move it), then the sender moved the instant.
      await h.db.updateTable('jobs').set({ status: 'running', lock_token: 'other', locked_until: h.clock.now().toISOString() }).where('key', '=', `delivery:${id}`).execute();
      expect((await change(h, cookie, id, { scheduledDatetime: inOneHour(h) })).statusCode).toBe(200);
      await h.jobs.runDue(); // the lease ran out: claimed again, it finds the new instant
      expect(mailsTo(to)).toHaveLength(0);
      expect((await jobOf(h, id)).run_at).toBe(inOneHour(h));
      h.clock.advance(HOUR);
      await h.jobs.runDue();
      expect(mailsTo(to)).toHaveLength(1);
    });

    it('a failing mail server: retries with exponential back-off, then a dead job whose error the sender sees', async () => {
      const h = get();
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      const to = uniqueEmail('maya');
      const id = await scheduleEmail(h, cookie, giftId, to, inOneHour(h));
      h.clock.advance(HOUR);
      smtp.mode = 'fail';
      const policy = RETRY_POLICIES['delivery.send'];
      try {
        for (let attempt = 1; attempt < policy.maxAttempts; attempt++) {
          expect(await h.jobs.runDue()).toBe(1);
          const job = await jobOf(h, id);
          expect(job).toMatchObject({ status: 'queued', attempts: attempt });
          expect(job.last_error).toMatch(/451/);
          const wait = Date.parse(job.run_at) - h.clock.now().getTime();
          const exact = backoffMs(policy, attempt, () => 0.5);
          expect(wait).toBeGreaterThanOrEqual(Math.floor(exact * 0.8));
          expect(wait).toBeLessThanOrEqual(Math.ceil(exact * 1.2));
          // The sender sees the pending delivery with the failed attempt's error.
          const shown = (await list(h, cookie, giftId)).deliveries[0];
          expect(shown).toMatchObject({ status: 'pending', attempts: attempt });
          expect(shown?.lastError).toMatch(/451/);
          h.clock.advance(wait - 1000);
          expect(await h.jobs.runDue()).toBe(0);
          h.clock.advance(1000);
        }
        expect(await h.jobs.runDue()).toBe(1);
      } finally {
        smtp.mode = 'accept';
      }
      const dead = await jobOf(h, id);
      expect(dead).toMatchObject({ status: 'dead', attempts: policy.maxAttempts });
      expect(dead.last_error).toMatch(/451/);
      const failed = (await list(h, cookie, giftId)).deliveries[0];
      expect(failed?.status).toBe('failed');
      expect(failed?.lastError).toMatch(/451/);
      expect(mailsTo(to)).toHaveLength(0);

      // Changing a failed delivery sends it again (now, since its instant has passed), even after housekeeping
      // removed its dead job (30 days later).
      await h.db.deleteFrom('jobs').where('key', '=', `delivery:${id}`).execute();
      const retried = await change(h, cookie, id, { recipientContact: to });
      expect(retried.statusCode, retried.body).toBe(200);
      expect(DeliveryResponse.parse(json(retried)).delivery).toMatchObject({ status: 'pending', lastError: null, attempts: 0 });
      expect(await h.jobs.runDue()).toBe(1);
      expect(mailsTo(to)).toHaveLength(1);
    });

    it('send now: an e-mail due at once', async () => {
      const h = get();
      const { cookie } = await signIn(h, uniqueEmail(), 'Ravi');
      const giftId = await paidGift(h, cookie);
      const to = uniqueEmail('maya');
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/scheduled-messages/send-now',
        headers: { cookie },
        payload: { giftId, recipientContact: ` ${to.toUpperCase()} `, contactType: 'email', timezone: 'America/New_York' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(DeliveryResponse.parse(json(res)).delivery).toMatchObject({ status: 'pending', recipientContact: to, scheduledDatetime: h.clock.now().toISOString() });
      expect(await h.jobs.runDue()).toBe(1);
      expect(mailsTo(to)[0]?.subject).toBe('You have a gift message from Ravi');
    });

    it('every call is scoped to the sender’s session; another sender’s delivery is a 404', async () => {
      const h = get();
      const owner = await signIn(h);
      const other = await signIn(h);
      const giftId = await paidGift(h, owner.cookie);
      const id = await scheduleEmail(h, owner.cookie, giftId, uniqueEmail(), inOneHour(h));

      const anonymous = await h.app.inject({ method: 'GET', url: `/api/scheduled-messages?giftId=${giftId}` });
      expect(anonymous.statusCode).toBe(401);
      expect((await h.app.inject({ method: 'DELETE', url: `/api/scheduled-messages/${id}` })).statusCode).toBe(401);
      const foreignList = await h.app.inject({ method: 'GET', url: `/api/scheduled-messages?giftId=${giftId}`, headers: { cookie: other.cookie } });
      expect(foreignList.statusCode).toBe(404);
      expect(json(foreignList).error).toBe(texts.sender.giftNotFound);
      for (const res of [await change(h, other.cookie, id, { recipientContact: uniqueEmail() }), await cancel(h, other.cookie, id)]) {
        expect(res.statusCode).toBe(404);
        expect(json(res).error).toBe(texts.sender.deliveryNotFound);
      }
      expect((await cancel(h, owner.cookie, 'not-an-id')).statusCode).toBe(404);
      expect((await change(h, owner.cookie, 'f'.repeat(32), { recipientContact: uniqueEmail() })).statusCode).toBe(404);

      // Bad changes are refused with the spec's texts and change nothing.
      const cases: [Record<string, unknown>, string][] = [
        [{}, texts.sender.deliveryNothingToChange],
        [{ scheduledDatetime: '2026-01-01T00:00:00Z' }, texts.sender.scheduleFuture],
        [{ scheduledDatetime: 'tomorrow' }, texts.sender.scheduleDateTimeRequired],
        [{ recipientContact: 'nobody' }, texts.sender.invalidEmail],
        [{ recipientContact: ' ' }, texts.sender.scheduleContactRequired],
        [{ scheduledDatetime: inOneHour(h), timezone: 'Mars/Base' }, texts.sender.timezoneInvalid],
        [{ contactType: 'whatsapp', recipientContact: '+919876543210' }, texts.sender.whatsappUnavailable],
      ];
      for (const [payload, message] of cases) {
        const res = await change(h, owner.cookie, id, payload);
        expect(res.statusCode, message).toBe(400);
        expect(json(res).error).toBe(message);
      }
      const { deliveries, whatsapp } = await list(h, owner.cookie, giftId);
      expect(deliveries[0]).toMatchObject({ id, status: 'pending', timezone: 'Asia/Kolkata' });
      expect(whatsapp.available).toBe(false);
      expect(whatsapp.reason).toContain('WhatsApp');
    });
  },
  { mailer: smtpMailer, readCode: (email) => smtp.codeFor(email) },
);

// ---------- WhatsApp through the Cloud API, against a loopback stand-in ----------

interface CloudCall {
  url: string;
  authorization: string | undefined;
  body: { to: string; type: string; template: { name: string; language: { code: string }; components: { parameters: { text: string }[] }[] } };
}
const cloudCalls: CloudCall[] = [];
let cloudStatus = 200;
const cloud = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    cloudCalls.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString()) as CloudCall['body'] });
    res.writeHead(cloudStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify(cloudStatus === 200 ? { messages: [{ id: 'wamid.1' }] } : { error: { message: '(#131026) Message undeliverable' } }));
  });
});
await new Promise<void>((resolve) => cloud.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => cloud.close(() => resolve())));
const cloudUrl = `http://127.0.0.1:${(cloud.address() as AddressInfo).port}/v21.0`;

describeEachDatabase(
  'scheduled WhatsApp through the Cloud API',
  (get) => {
    it('sends the approved template with the sender’s name and the link; a refusal fails it at once', async () => {
      const h = get();
      const { cookie } = await signIn(h, uniqueEmail(), 'Asha');
      const giftId = await paidGift(h, cookie);
      expect((await list(h, cookie, giftId)).whatsapp).toEqual({ available: true, reason: null });

      const bad = await schedule(h, cookie, { giftId, recipientContact: '98765', contactType: 'whatsapp', scheduledDatetime: inOneHour(h), timezone: 'Asia/Kolkata' });
      expect(bad.statusCode).toBe(400);
      expect(json(bad).error).toBe(texts.sender.whatsappNumberInvalid);

      const ok = await schedule(h, cookie, { giftId, recipientContact: '+91 98765-43210', contactType: 'whatsapp', scheduledDatetime: inOneHour(h), timezone: 'Asia/Kolkata' });
      expect(ok.statusCode, ok.body).toBe(200);
      h.clock.advance(HOUR);
      const before = cloudCalls.length;
      expect(await h.jobs.runDue()).toBe(1);
      expect(cloudCalls).toHaveLength(before + 1);
      const call = cloudCalls.at(-1)!;
      expect(call.url).toBe('/v21.0/1234567890/messages');
      expect(call.authorization).toBe('Bearer test-token');
      expect(call.body).toMatchObject({ to: '919876543210', type: 'template', template: { name: 'gift_link', language: { code: 'en' } } });
      expect(call.body.template.components[0]?.parameters.map((p) => p.text)).toEqual(['Asha', `${PUBLIC_ORIGIN}/sharelink/${giftId}`]);
      expect((await list(h, cookie, giftId)).deliveries[0]).toMatchObject({ status: 'sent', contactType: 'whatsapp', recipientContact: '+919876543210' });

      // A 4xx from the Cloud API (an unknown number) is not retried: the delivery fails with the reason.
      cloudStatus = 400;
      try {
        await schedule(h, cookie, { giftId, recipientContact: '+15550001111', contactType: 'whatsapp', scheduledDatetime: inOneHour(h), timezone: 'America/New_York' });
        h.clock.advance(HOUR);
        expect(await h.jobs.runDue()).toBe(1);
      } finally {
        cloudStatus = 200;
      }
      const failed = (await list(h, cookie, giftId)).deliveries.find((d) => d.recipientContact === '+15550001111');
      expect(failed?.status).toBe('failed');
      expect(failed?.lastError).toContain('Message undeliverable');
    });
  },
  {
    mailer: smtpMailer,
    readCode: (email) => smtp.codeFor(email),
    whatsapp: createWhatsAppCloud({ token: 'test-token', phoneNumberId: '1234567890', template: 'gift_link', language: 'en', apiBaseUrl: cloudUrl }),
  },
);
