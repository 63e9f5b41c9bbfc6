import { BACKUP_CODE, CODE_LIMITS, CODE_TTL_MS, SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { staffApi } from '@giftlens/contract/staff';
import { texts } from '@giftlens/contract/texts';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { beforeAll, expect } from 'vitest';
import type { Mailer } from '../src/adapters/mail.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { activeGift, scanPhotos, verifyRecipientCode } from './helpers/recipient.ts';

// Issue 37, item 2: limits slow the requester, never lock the target out. Client addresses come from
// X-Forwarded-For behind one trusted proxy (TRUST_PROXY=1), as in the probe that found the lock-out.

const STAFF = 'support@giftlens.test';
const ATTACKER = '198.51.100.7';
const OWNER = '203.0.113.5';
const from = (client: string) => ({ 'x-forwarded-for': client });

const sendEmail = (h: Harness, email: string, client: string) =>
  h.app.inject({ method: 'POST', url: '/api/gift-sender/send-email', headers: from(client), payload: { email, type: 'sender' } });
const verifyEmail = (h: Harness, email: string, code: string, client: string) =>
  h.app.inject({ method: 'POST', url: '/api/gift-sender/verify-email', headers: from(client), payload: { email, code, type: 'sender' } });
const staffSend = (h: Harness, email: string, client: string) =>
  h.app.inject({ method: 'POST', url: staffApi.sendCode, headers: from(client), payload: { email } });

/** How many code mails went to `email` (the outbox's .eml files addressed to it). */
async function codeMailsTo(h: Harness, email: string): Promise<number> {
  await h.codeMails.runDue();
  let n = 0;
  for (const f of (await readdir(h.outboxDir)).filter((x) => x.endsWith('.eml'))) {
    const eml = await readFile(path.join(h.outboxDir, f), 'utf8');
    if (new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(eml) && /verification code is \d{6}/.test(eml)) n++;
  }
  return n;
}

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

describeEachDatabase(
  'sign-in codes: limits per client address and per target (issue 37)',
  (get) => {
    it('an address asked for from another client all day never stops its owner: 200, and the latest code signs in', async () => {
      const h = get();
      const victim = uniqueEmail('victim');
      // The attacker asks as often as the limits let them, for a whole day.
      const attacker: number[] = [];
      for (let i = 0; i < 40; i++) {
        attacker.push((await sendEmail(h, victim, `${ATTACKER.slice(0, -1)}${i % 5}`)).statusCode);
        await h.codeMails.runDue();
        h.clock.advance(36 * 60_000);
      }
      expect(attacker.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      // The inbox was paced: far fewer mails than requests (a burst, then one per slow pace at most).
      const mails = await codeMailsTo(h, victim);
      expect(mails).toBeGreaterThan(0);
      expect(mails).toBeLessThanOrEqual(CODE_LIMITS.burst + Math.ceil((40 * 36 * 60_000) / CODE_LIMITS.slowPaceMs));

      // The owner, asking from their own address right after the attacker's last request: 200, and a code signs in.
      h.clock.advance(1000);
      await sendEmail(h, victim, ATTACKER);
      const asked = await sendEmail(h, victim, OWNER);
      expect(asked.statusCode, asked.body).toBe(200);
      const signedIn = await verifyEmail(h, victim, await h.readCode(victim), OWNER);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      // Signed in: the code is used, so the next ask mails a fresh one at once.
      expect((await sendEmail(h, victim, OWNER)).statusCode).toBe(429);
      h.clock.advance(SENDER_RESEND_COOLDOWN_S * 1000);
      const before = await codeMailsTo(h, victim);
      expect((await sendEmail(h, victim, OWNER)).statusCode).toBe(200);
      expect(await codeMailsTo(h, victim)).toBe(before + 1);
    });

    it('one client address is slowed: its requests over every address are counted (429 with Retry-After), others are not', async () => {
      const h = get();
      const client = '198.51.100.60';
      for (let i = 0; i < CODE_LIMITS.perClient; i++) expect((await sendEmail(h, uniqueEmail('many'), client)).statusCode).toBe(200);
      const refused = await sendEmail(h, uniqueEmail('many'), client);
      expect(refused.statusCode).toBe(429);
      expect(json(refused)).toMatchObject({ code: 'too_many_codes', error: texts.sender.resendTooEarly });
      expect(Number(refused.headers['retry-after'])).toBe(CODE_LIMITS.clientWindowMs / 1000);
      expect((await sendEmail(h, uniqueEmail('many'), '198.51.100.61')).statusCode).toBe(200);
      h.clock.advance(CODE_LIMITS.clientWindowMs);
      expect((await sendEmail(h, uniqueEmail('many'), client)).statusCode).toBe(200);
    });

    it('the resend cooldown is per client and target: another client asking the same address is answered 200 at once', async () => {
      const h = get();
      const email = uniqueEmail('pair');
      expect((await sendEmail(h, email, ATTACKER)).statusCode).toBe(200);
      const again = await sendEmail(h, email, ATTACKER);
      expect(again.statusCode).toBe(429);
      expect(json(again)).toMatchObject({ code: 'resend_too_early' });
      const owner = await sendEmail(h, email, OWNER);
      expect(owner.statusCode).toBe(200);
      // Within the target's pace: no second mail; the first, in the inbox, is live and signs in.
      expect(await codeMailsTo(h, email)).toBe(1);
      expect((await verifyEmail(h, email, await h.readCode(email), OWNER)).statusCode).toBe(200);
    });

    it('a flood from many client addresses is paced per target: minutes between mails, never a day-long lock', async () => {
      const h = get();
      const email = uniqueEmail('flooded');
      let clientN = 0;
      // 2 hours of one request a minute, each from a new address.
      for (let i = 0; i < 120; i++) {
        expect((await sendEmail(h, email, `192.0.2.${clientN++ % 250}`)).statusCode).toBe(200);
        await h.codeMails.runDue();
        h.clock.advance(60_000);
      }
      const mails = await codeMailsTo(h, email);
      // With no pace, 120; paced: the burst, then one per code lifetime.
      expect(mails).toBeLessThanOrEqual(CODE_LIMITS.burst + Math.ceil((120 * 60_000) / Math.min(CODE_LIMITS.slowPaceMs, CODE_TTL_MS)) + 1);
      expect(mails).toBeGreaterThanOrEqual(2);
      // The owner can sign in at any point with the latest code mailed.
      expect((await verifyEmail(h, email, await h.readCode(email), OWNER)).statusCode).toBe(200);
    });

    it('recipients: the same — an attacker’s requests never stop the owner signing in from their own address', async () => {
      const h = get();
      const recipient = uniqueEmail('maya');
      await activeGift(h, (await signIn(h, uniqueEmail('giver'))).cookie, { photo: photos.reference, recipientEmail: recipient });
      for (let i = 0; i < 15; i++) {
        await h.app.inject({ method: 'POST', url: '/api/verification-recipient/send-otp', headers: from(ATTACKER), payload: { email: recipient, type: 'recipient' } });
        h.clock.advance(31_000);
      }
      const asked = await h.app.inject({ method: 'POST', url: '/api/verification-recipient/send-otp', headers: from(OWNER), payload: { email: recipient, type: 'recipient' } });
      expect(asked.statusCode, asked.body).toBe(200);
      const verified = await verifyRecipientCode(h, recipient, await h.readCode(recipient));
      expect(verified.statusCode, verified.body).toBe(200);
    });

    it('staff: requests for a staff address from elsewhere never stop the staff member getting a code that works', async () => {
      const h = get();
      for (let i = 0; i < 15; i++) {
        await staffSend(h, STAFF, ATTACKER);
        h.clock.advance(61_000);
      }
      const asked = await staffSend(h, STAFF, OWNER);
      expect(asked.statusCode, asked.body).toBe(200);
      const res = await h.app.inject({
        method: 'POST',
        url: staffApi.verify,
        headers: from(OWNER),
        payload: { email: STAFF, code: await h.readCode(STAFF) },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  },
  { trustProxy: 1, codeLimits: CODE_LIMITS, staffEmails: [STAFF] },
);

describeEachDatabase(
  'backup codes: bounded per client address and per gift, never a lock for the recipient (issue 37)',
  (get) => {
    let sender: { cookie: string; email: string };
    beforeAll(async () => {
      sender = await signIn(get(), uniqueEmail('sender'), 'Asha');
    });

    const open = (h: Harness, giftId: string, code: string, client: string) =>
      h.app.inject({ method: 'POST', url: `/api/verification-recipient/open-with-code/${giftId}`, headers: from(client), payload: { code } });
    async function codeOf(h: Harness, giftId: string) {
      const res = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie: sender.cookie } });
      return json<{ gift: { backupCode: string } }>(res).gift.backupCode;
    }
    const wrongOf = (code: string) => code.slice(0, 7) + String((Number(code[7]) + 1) % 10);

    it('wrong codes from other addresses, past the gift’s pace, never stop the right code from the recipient’s address', async () => {
      const h = get();
      const giftId = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
      const code = await codeOf(h, giftId);
      // Guessers from several addresses, each to its own limit: the gift's pace is full.
      const clients = Array.from({ length: Math.ceil(BACKUP_CODE.wrongPerGift / BACKUP_CODE.wrongPerClient) }, (_, i) => `198.51.100.${10 + i}`);
      let compared = 0;
      for (const client of clients) {
        for (let i = 0; i < BACKUP_CODE.wrongPerClient; i++) if ((await open(h, giftId, wrongOf(code), client)).statusCode === 400) compared++;
        const refused = await open(h, giftId, wrongOf(code), client);
        expect(refused.statusCode).toBe(429);
        expect(json(refused)).toMatchObject({ code: 'too_many_wrong_codes', error: texts.backupCode.tooManyWrong });
      }
      expect(compared).toBe(BACKUP_CODE.wrongPerGift);
      // A new address that guesses wrong once is then over the gift's pace: bounded per gift, not only per address.
      expect((await open(h, giftId, wrongOf(code), '198.51.100.99')).statusCode).toBe(400);
      expect((await open(h, giftId, wrongOf(code), '198.51.100.99')).statusCode).toBe(429);
      // The recipient, from their own address, with the right code: it opens.
      const opened = await open(h, giftId, code, OWNER);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(json(opened)).toMatchObject({ success: true, giftId });
      // The sender's summary now says it was opened (the share page then offers no "tell me when it's opened").
      const summary = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}`, headers: { cookie: sender.cookie } });
      expect(json<{ gift: { firstOpenedAt: string | null } }>(summary).gift.firstOpenedAt).not.toBeNull();
    });

    it('wrong codes from one address for many gifts are bounded per address over all gifts', async () => {
      const h = get();
      const client = '198.51.100.77';
      let refusedAt = -1;
      for (let i = 0; i <= BACKUP_CODE.wrongPerClientAll && refusedAt < 0; i++) {
        // A new gift every wrongPerClient tries, so no gift's own limit is reached first.
        const giftId = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
        const code = await codeOf(h, giftId);
        for (let j = 0; j < BACKUP_CODE.wrongPerClient - 1 && refusedAt < 0; j++) {
          const n = i * (BACKUP_CODE.wrongPerClient - 1) + j;
          if ((await open(h, giftId, wrongOf(code), client)).statusCode === 429) refusedAt = n;
        }
      }
      expect(refusedAt).toBe(BACKUP_CODE.wrongPerClientAll);
    });
  },
  { trustProxy: 1 },
);

// Issue 37, item 5: a staff send-code waited for its mail (750 ms against 14–142 ms): every code now goes through the
// job runner, so no answer waits for a mail, whoever the address is.
const relay = (() => {
  const sent: string[] = [];
  let open: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (open = resolve));
  return {
    sent,
    /** A relay that takes no mail until `release` (a request that waited for it would never answer). */
    mailer: (): Mailer => ({
      send: async (m) => {
        await gate;
        sent.push(m.to);
      },
      check: () => Promise.resolve(),
      close: () => undefined,
    }),
    release: () => open(),
    hold: () => {
      sent.length = 0;
      gate = new Promise<void>((resolve) => (open = resolve));
    },
  };
})();

describeEachDatabase(
  'staff send-code answers as any other address: no request waits for a mail (issue 37)',
  (get) => {
    it('a staff address and a stranger are answered alike while the mail relay holds every mail', async () => {
      const h = get();
      relay.hold();
      const times: Record<'staff' | 'stranger', number[]> = { staff: [], stranger: [] };
      for (let i = 0; i < 10; i++) {
        for (const [who, email] of [['staff', `staff${i}@giftlens.test`], ['stranger', uniqueEmail('stranger')]] as const) {
          const started = performance.now();
          const res = await staffSend(h, email, `198.51.100.${100 + i}`);
          times[who].push(performance.now() - started);
          expect(res.statusCode, res.body).toBe(200);
          expect(json(res)).toEqual({ success: true, resendAfter: SENDER_RESEND_COOLDOWN_S });
        }
      }
      // Every answer came back while the relay took nothing.
      expect(relay.sent).toEqual([]);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
      console.log(`[issue 37] staff send-code median ${median(times.staff).toFixed(1)} ms, stranger ${median(times.stranger).toFixed(1)} ms (the relay holding every mail)`);
      relay.release();
      await h.codeMails.runDue();
      // Then the runner mails the staff addresses' codes, and nobody else's.
      expect(relay.sent.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `staff${i}@giftlens.test`).sort());
    });
  },
  { trustProxy: 1, staffEmails: Array.from({ length: 10 }, (_, i) => `staff${i}@giftlens.test`), mailer: relay.mailer },
);
