import { memoryWindow } from '../src/adapters/sliding-window.ts';
import { texts } from '@giftlens/contract/texts';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect } from 'vitest';
import { createSmtpMailer } from '../src/adapters/mail.ts';
import { createOneTimeCodes } from '../src/modules/auth/one-time-codes.ts';
import {
  cookieHeader,
  describeEachDatabase,
  type Harness,
  it,
  json,
  SESSION_SECRET,
  signIn,
  uniqueEmail,
} from './helpers/harness.ts';

const sendEmail = (email: string) => ({
  method: 'POST' as const,
  url: '/api/gift-sender/send-email',
  payload: { email, type: 'sender' },
});
const verifyEmail = (email: string, code: string) => ({
  method: 'POST' as const,
  url: '/api/gift-sender/verify-email',
  payload: { email, code, type: 'sender' },
});
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The code service on a harness's database and clock; `mailed` runs the code mails queued and says to whom they went. */
function recordingCodes(h: Harness) {
  const codes = createOneTimeCodes({
    db: h.db,
    clock: h.clock,
    sessionSecret: SESSION_SECRET,
    log: () => undefined,
    mailer: { send: () => Promise.reject(new Error('the request never mails')), check: () => Promise.resolve(), close: () => undefined },
    codeWindow: memoryWindow('test:'),
  });
  const mailed = async (email: string) => {
    const ids = (await h.db.selectFrom('verification_codes').select('id').where('destination', '=', email).execute()).map((r) => `code-mail:${r.id}`);
    return ids.length === 0 ? [] : h.db.selectFrom('jobs').select('key').where('key', 'in', ids).execute();
  };
  return { codes, mailed };
}

describeEachDatabase('sender auth', (get) => {
  it('mails a 6-digit code as a text + HTML message and stores only its hash', async () => {
    const h = get();
    const email = uniqueEmail();
    const res = await h.app.inject(sendEmail(email.toUpperCase()));
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true, resendAfter: 60 });

    const code = await h.readCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const files = await readdir(h.outboxDir);
    const emls = await Promise.all(files.map((f) => readFile(path.join(h.outboxDir, f))));
    const mail = await simpleParser(emls.find((e) => e.toString().includes(email)) ?? Buffer.alloc(0));
    expect(mail.subject).toBe(`Your GiftLens verification code is ${code}`);
    expect(mail.text).toContain(`Your GiftLens verification code is ${code}`);
    expect(mail.html).toContain(code);
    expect(mail.from?.text).toContain('no-reply@giftlens.test');

    const rows = await h.db.selectFrom('verification_codes').selectAll().where('destination', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.code_hash).not.toContain(code);
    expect(rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies the code, starts an HttpOnly SameSite=Lax session and reports a new user', async () => {
    const h = get();
    const email = uniqueEmail();
    await h.app.inject(sendEmail(email));
    const code = await h.readCode(email);
    const res = await h.app.inject(verifyEmail(email, code));
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true, isNewUser: true, firstName: null });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^gl_sender=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).not.toContain('Secure');
    const token = cookieHeader(res).split('=')[1] ?? '';
    const sessions = await h.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === token)).toBe(false);

    const me = await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie: cookieHeader(res) } });
    expect(json(me)).toEqual({ success: true, email, firstName: null });

    // A used code cannot be used again.
    const again = await h.app.inject(verifyEmail(email, code));
    expect(again.statusCode).toBe(400);
    expect(json(again).error).toBe(texts.sender.invalidCode);
  });

  it('greets a returning sender with isNewUser false and their first name', async () => {
    const h = get();
    const { email } = await signIn(h, uniqueEmail(), 'Ravi');
    h.clock.advance(61_000);
    await h.app.inject(sendEmail(email));
    const res = await h.app.inject(verifyEmail(email, await h.readCode(email)));
    expect(json(res)).toEqual({ success: true, isNewUser: false, firstName: 'Ravi' });
  });

  it('answers 429 with the spec text and retryAfter on a resend within 60 s, and allows it after', async () => {
    const h = get();
    const email = uniqueEmail();
    await h.app.inject(sendEmail(email));
    h.clock.advance(20_000);
    const early = await h.app.inject(sendEmail(email));
    expect(early.statusCode).toBe(429);
    expect(json(early)).toEqual({
      success: false,
      error: 'Please wait before requesting another code',
      code: 'resend_too_early',
      retryAfter: 40,
    });
    expect(early.headers['retry-after']).toBe('40');
    expect(await h.db.selectFrom('verification_codes').select('id').where('destination', '=', email).execute()).toHaveLength(1);

    h.clock.advance(40_000);
    const later = await h.app.inject(sendEmail(email));
    expect(later.statusCode).toBe(200);
    // Only the newest code works.
    const codes = await h.db
      .selectFrom('verification_codes')
      .select(['consumed_at'])
      .where('destination', '=', email)
      .orderBy('created_at')
      .execute();
    expect(codes.map((c) => c.consumed_at === null)).toEqual([false, true]);
  });

  it('kills a code after five wrong tries: even the right code then fails', async () => {
    const h = get();
    const email = uniqueEmail();
    const sessionsBefore = (await h.db.selectFrom('sessions').select('token_hash').execute()).length;
    await h.app.inject(sendEmail(email));
    const code = await h.readCode(email);
    for (let i = 1; i <= 5; i++) {
      const res = await h.app.inject(verifyEmail(email, wrongCode(code)));
      expect(res.statusCode).toBe(400);
      expect(json(res).error).toBe(i < 5 ? texts.sender.invalidCode : texts.sender.tooManyAttempts);
    }
    const right = await h.app.inject(verifyEmail(email, code));
    expect(right.statusCode).toBe(400);
    expect(json(right)).toMatchObject({ success: false, error: texts.sender.tooManyAttempts, code: 'too_many_attempts' });
    expect(right.headers['set-cookie']).toBeUndefined();
    expect(await h.db.selectFrom('senders').select('id').where('email', '=', email).execute()).toHaveLength(0);
    expect(await h.db.selectFrom('sessions').select('token_hash').execute()).toHaveLength(sessionsBefore);
    const row = await h.db.selectFrom('verification_codes').selectAll().where('destination', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 5, consumed_at: null });
  });

  it('two simultaneous sends to one address mail one code: the other is the 429', async () => {
    const h = get();
    const email = uniqueEmail();
    const { codes, mailed } = recordingCodes(h);
    // Both calls start in the same tick, so both pass any read-then-write check before either writes.
    const results = await Promise.allSettled([codes.send('sender', email, '192.0.2.1', 60), codes.send('sender', email, '192.0.2.1', 60)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ statusCode: 429, code: 'resend_too_early' });
    expect(await mailed(email)).toHaveLength(1);
    expect(await h.db.selectFrom('verification_codes').select('id').where('destination', '=', email).execute()).toHaveLength(1);
  });

  it('two simultaneous sends to one address from two client addresses mail one code: both are answered 200', async () => {
    const h = get();
    const email = uniqueEmail('race');
    const { codes, mailed } = recordingCodes(h);
    const results = await Promise.all([codes.send('sender', email, '192.0.2.1', 60), codes.send('sender', email, '192.0.2.2', 60)]);
    expect(results.map((r) => r.resendAfter)).toEqual([60, 60]);
    expect(await mailed(email)).toHaveLength(1);
    expect(await h.db.selectFrom('verification_codes').select('id').where('destination', '=', email).execute()).toHaveLength(1);
  });

  it('simultaneous guesses cannot test more codes than the five tries', async () => {
    const h = get();
    const email = uniqueEmail();
    await h.app.inject(sendEmail(email));
    const code = await h.readCode(email);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((g) => h.app.inject(verifyEmail(email, g))));
    const codes = answers.map((r) => String(json(r).code));
    // Five tries: four "invalid" answers, the fifth and every later guess "too many" — none compared after that.
    expect(codes.filter((c) => c === 'invalid_code')).toHaveLength(4);
    expect(codes.filter((c) => c === 'too_many_attempts')).toHaveLength(16);
    const row = await h.db.selectFrom('verification_codes').selectAll().where('destination', '=', email).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect((await h.app.inject(verifyEmail(email, code))).statusCode).toBe(400);
  });

  it('rejects an expired code (after 10 minutes)', async () => {
    const h = get();
    const email = uniqueEmail();
    await h.app.inject(sendEmail(email));
    const code = await h.readCode(email);
    h.clock.advance(10 * 60 * 1000 + 1);
    const res = await h.app.inject(verifyEmail(email, code));
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ error: texts.sender.codeExpired, code: 'code_expired' });
    expect(await h.db.selectFrom('senders').select('id').where('email', '=', email).execute()).toHaveLength(0);
  });

  it('answers an unknown address, a malformed code and bad input with the spec texts', async () => {
    const h = get();
    const none = await h.app.inject(verifyEmail(uniqueEmail(), '123456'));
    expect(json(none)).toMatchObject({ success: false, error: texts.sender.invalidCode });
    const malformed = await h.app.inject(verifyEmail(uniqueEmail(), '12ab'));
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed)).toEqual({ success: false, error: texts.sender.invalidCode, code: 'validation_failed' });
    const badEmail = await h.app.inject(sendEmail('not-an-email'));
    expect(badEmail.statusCode).toBe(400);
    expect(json(badEmail)).toEqual({ success: false, error: texts.sender.invalidEmail, code: 'validation_failed' });
    const notJson = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/send-email',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(notJson.statusCode).toBe(400);
    expect(json(notJson)).toMatchObject({ success: false, error: texts.sender.generic });
  });

  it('keeps WhatsApp switched off with a 400 (a choice of this deployment, not a server fault)', async () => {
    const h = get();
    for (const url of ['/api/gift-sender/send-whatsapp', '/api/gift-sender/verify-whatsapp']) {
      const res = await h.app.inject({
        method: 'POST',
        url,
        payload: { phoneNumber: '+919876543210', code: '123456', type: 'sender' },
      });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({ success: false, error: texts.sender.whatsappUnavailable, code: 'whatsapp_unavailable' });
    }
  });

  it('update-user needs a session and applies the first-name rules', async () => {
    const h = get();
    const anon = await h.app.inject({ method: 'POST', url: '/api/gift-sender/update-user', payload: { firstName: 'X' } });
    expect(anon.statusCode).toBe(401);
    expect(json(anon)).toEqual({ success: false, error: texts.sender.unauthorized, code: 'unauthorized' });
    const forged = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/update-user',
      headers: { cookie: 'gl_sender=forged-token-value' },
      payload: { firstName: 'X' },
    });
    expect(forged.statusCode).toBe(401);

    const { cookie, email } = await signIn(h, uniqueEmail(), null);
    const update = (payload: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: '/api/gift-sender/update-user', headers: { cookie }, payload });
    expect(json(await update({ firstName: '   ' })).error).toBe(texts.sender.firstNameRequired);
    expect(json(await update({})).error).toBe(texts.sender.firstNameRequired);
    expect(json(await update({ firstName: 'x'.repeat(51) })).error).toBe(texts.sender.firstNameTooLong);
    const other = await update({ firstName: 'Eve', email: 'someone-else@example.com' });
    expect(other.statusCode).toBe(403);
    const ok = await update({ firstName: '  Asha  ', email });
    expect(json(ok)).toEqual({ success: true });
    const me = await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie } });
    expect(json(me)).toEqual({ success: true, email, firstName: 'Asha' });
  });

  it('GET /me without a session is 401', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/gift-sender/me' });
    expect(res.statusCode).toBe(401);
  });

  it('a session expires after 30 days', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    h.clock.advance(30 * 24 * 60 * 60 * 1000 + 1000);
    const me = await h.app.inject({ method: 'GET', url: '/api/gift-sender/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });
});

describeEachDatabase(
  'sender auth rate limit',
  (get) => {
    it('limits the sign-in calls per IP', async () => {
      const h = get();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await h.app.inject(verifyEmail(uniqueEmail(), '123456'))).statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      const limited = await h.app.inject(verifyEmail(uniqueEmail(), '123456'));
      expect(json(limited)).toMatchObject({ success: false, error: texts.sender.tooManyRequests, code: 'rate_limited' });
    });
  },
  { authRateLimit: { max: 3, timeWindow: 60_000 } },
);

describeEachDatabase(
  'sender auth behind https',
  (get) => {
    it('marks the session cookie Secure when PUBLIC_ORIGIN is https', async () => {
      const h = get();
      const email = uniqueEmail();
      await h.app.inject(sendEmail(email));
      const res = await h.app.inject(verifyEmail(email, await h.readCode(email)));
      const setCookie = String(res.headers['set-cookie']);
      expect(setCookie).toContain('Secure');
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Lax');
    });
  },
  { secureCookies: true },
);

// A real SMTP server on a loopback port receives the code (the SMTP_URL path).
const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      callback();
    });
  },
});
const smtpPort = await new Promise<number>((resolve) => {
  smtp.listen(0, '127.0.0.1', () => {
    const address = smtp.server.address();
    resolve(typeof address === 'object' && address ? address.port : 0);
  });
});

afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

describeEachDatabase(
  'sender auth over SMTP',
  (get) => {
    it('delivers the code through SMTP_URL', async () => {
      const h = get();
      const email = uniqueEmail('smtp');
      const res = await h.app.inject(sendEmail(email));
      expect(res.statusCode).toBe(200);
      await h.codeMails.runDue();
      const raw = received.find((m) => m.includes(email));
      expect(raw).toBeDefined();
      const mail = await simpleParser(raw ?? '');
      const code = /(\d{6})$/.exec(mail.subject ?? '')?.[1] ?? '';
      expect(mail.subject).toBe(`Your GiftLens verification code is ${code}`);
      const verified = await h.app.inject(verifyEmail(email, code));
      expect(json(verified)).toMatchObject({ success: true, isNewUser: true });
    });
  },
  { mailer: () => createSmtpMailer(`smtp://127.0.0.1:${smtpPort}`, 'GiftLens <no-reply@giftlens.test>') },
);

describeEachDatabase(
  'sender auth when mail fails',
  (get) => {
    it('answers at once (the mail is the job runner’s), and the job keeps trying while the code lives', async () => {
      const h = get();
      const email = uniqueEmail();
      const res = await h.app.inject(sendEmail(email));
      expect(res.statusCode).toBe(200);
      const [code] = await h.db.selectFrom('verification_codes').select('id').where('destination', '=', email).execute();
      await h.codeMails.runDue();
      const job = await h.db.selectFrom('jobs').selectAll().where('key', '=', `code-mail:${code!.id}`).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(job.last_error).toMatch(/ECONNREFUSED|connect/i);
    });
  },
  // Port 1 on loopback: nothing listens, the connection is refused.
  { mailer: () => createSmtpMailer('smtp://127.0.0.1:1', 'GiftLens <no-reply@giftlens.test>') },
);
