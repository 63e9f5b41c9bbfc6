import { BACKUP_CODE } from '@giftlens/contract/constants';
import type { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import type { ScanResponse } from '@giftlens/contract/recipient';
import type { GiftSummary } from '@giftlens/contract/sender';
import { spacedBackupCode, texts } from '@giftlens/contract/texts';
import { simpleParser } from 'mailparser';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { createGift, uploadVideo } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { activeGift, directScan, recipientSignIn, revealCookie, scanPhotos } from './helpers/recipient.ts';


let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

const openWithCode = (h: Harness, giftId: string, code: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: `/api/verification-recipient/open-with-code/${giftId}`, payload: { code }, headers });

async function myGifts(h: Harness, cookie: string) {
  const res = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return json<MyGiftsResponse>(res).gifts;
}

async function codeOf(h: Harness, cookie: string, giftId: string): Promise<string> {
  const code = (await myGifts(h, cookie)).find((g) => g.id === giftId)?.backupCode;
  if (!code) throw new Error(`no backup code for ${giftId}`);
  return code;
}

const scansUsed = async (h: Harness, giftId: string) =>
  (await h.db.selectFrom('gifts').select('scans_used').where('id', '=', giftId).executeTakeFirstOrThrow()).scans_used;

const openedNotices = (h: Harness, giftId: string) =>
  h.db.selectFrom('jobs').select('id').where('key', '=', `notice:opened:${giftId}`).execute();

/** A code that is not the gift's: the right one with its last digit changed. */
const wrongOf = (code: string) => code.slice(0, 7) + String((Number(code[7]) + 1) % 10);

describeEachDatabase('backup codes (decision 039)', (get) => {
  let sender: { cookie: string; email: string };

  beforeAll(async () => {
    sender = await signIn(get(), uniqueEmail('sender'), 'Asha');
  });

  it('a paid gift has an 8-digit code its sender sees in My Gifts and its summary; an unpaid gift none; nobody else', async () => {
    const h = get();
    const paid = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const unpaid = await createGift(h, sender.cookie);
    const gifts = await myGifts(h, sender.cookie);
    const code = gifts.find((g) => g.id === paid)?.backupCode;
    expect(code).toMatch(/^\d{8}$/);
    expect(gifts.find((g) => g.id === unpaid)?.backupCode).toBeNull();

    const summary = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${paid}`, headers: { cookie: sender.cookie } });
    expect(json<{ gift: GiftSummary }>(summary).gift.backupCode).toBe(code);
    // The same code every time it is read.
    expect(await codeOf(h, sender.cookie, paid)).toBe(code);

    // Another sender: not in their list, and the summary answers as for a missing gift.
    const stranger = await signIn(h, uniqueEmail('stranger'));
    expect((await myGifts(h, stranger.cookie)).some((g) => g.id === paid)).toBe(false);
    const foreign = await h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${paid}`, headers: { cookie: stranger.cookie } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain(code);
    // The recipient's side never carries it.
    const verify = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${paid}` });
    expect(verify.body).not.toContain(code);
  });

  it('is stored sealed: the database holds no code in clear, and a sealed code moved to another gift opens nothing', async () => {
    const h = get();
    const a = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const b = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const codeA = await codeOf(h, sender.cookie, a);
    const row = await h.db.selectFrom('gifts').select('backup_code').where('id', '=', a).executeTakeFirstOrThrow();
    expect(row.backup_code).toMatch(/^v1\./);
    expect(row.backup_code).not.toContain(codeA);
    await h.db.updateTable('gifts').set({ backup_code: row.backup_code }).where('id', '=', b).execute();
    const res = await openWithCode(h, b, codeA);
    expect(res.statusCode).toBe(400);
  });

  it('the right code answers exactly as a matching direct scan: the same body, grant cookie, a counted reveal, the notice', async () => {
    const h = get();
    const byScan = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const byCode = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const scan = await directScan(h, byScan, photos.genuine);
    expect(scan.statusCode).toBe(200);

    const code = await codeOf(h, sender.cookie, byCode);
    expect(await scansUsed(h, byCode)).toBe(0);
    expect(await openedNotices(h, byCode)).toHaveLength(0);
    // Typed as people read it, with a space.
    const res = await openWithCode(h, byCode, spacedBackupCode(code));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');

    const normalise = (body: ScanResponse, giftId: string) =>
      JSON.parse(
        JSON.stringify({ ...body, matchResult: { ...body.matchResult, score: 0 } })
          .replaceAll(giftId, 'GIFT')
          .replace(/exp=\d+&sig=[0-9a-f]+/g, 'SIGNED')
          .replace(/(message|photo-\d+)-[0-9a-f]+\./g, '$1.')
          .replace(/maya-[a-z0-9-]+@example\.com/g, 'MAYA'),
      ) as unknown;
    expect(normalise(json<ScanResponse>(res), byCode)).toEqual(normalise(json<ScanResponse>(scan), byScan));
    expect(Object.keys(json(res))).toEqual(Object.keys(json(scan)));

    const grant = revealCookie(res, byCode);
    expect(grant).toBeTruthy();
    const message = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/gift-message/${byCode}`, headers: { cookie: grant! } });
    expect(message.statusCode).toBe(200);
    expect(await scansUsed(h, byCode)).toBe(1);
    expect(await openedNotices(h, byCode)).toHaveLength(1);
  });

  it('a wrong code answers 400 with its text; after 5 wrong codes in an hour from one address 429 with Retry-After there, even for the right one', async () => {
    const h = get();
    const giftId = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const code = await codeOf(h, sender.cookie, giftId);
    for (let i = 0; i < BACKUP_CODE.wrongPerClient; i++) {
      const res = await openWithCode(h, giftId, i === 0 ? 'abc' : wrongOf(code));
      expect(res.statusCode, res.body).toBe(400);
      expect(json(res)).toMatchObject({ success: false, code: 'backup_code_wrong', error: texts.backupCode.wrong });
      h.clock.advance(60_000);
    }
    // Counted in the database (so every API node sees it), not in this process's memory.
    const rows = await h.db.selectFrom('scan_failures').select('id').where('scope', '=', `code:${giftId}`).execute();
    expect(rows).toHaveLength(BACKUP_CODE.wrongPerClient);

    const refused = await openWithCode(h, giftId, code);
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toMatchObject({ success: false, code: 'too_many_wrong_codes', error: texts.backupCode.tooManyWrong });
    // The first wrong code was 5 minutes ago: it leaves the hour in 55 minutes.
    expect(Number(refused.headers['retry-after'])).toBe(55 * 60);
    expect(await scansUsed(h, giftId)).toBe(0);

    // A code for another gift is unaffected.
    const other = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    expect((await openWithCode(h, other, await codeOf(h, sender.cookie, other))).statusCode).toBe(200);

    h.clock.advance(55 * 60_000 + 1000);
    const later = await openWithCode(h, giftId, code);
    expect(later.statusCode, later.body).toBe(200);
  });

  it('wrong codes sent all at once are each counted: no more than 5 are ever compared in the hour', async () => {
    const h = get();
    const giftId = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const code = await codeOf(h, sender.cookie, giftId);
    const burst = await Promise.all(Array.from({ length: 20 }, () => openWithCode(h, giftId, wrongOf(code))));
    const statuses = burst.map((r) => r.statusCode);
    // Checked before being written down, the 20 would all have been compared (20 times 400).
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(BACKUP_CODE.wrongPerClient);
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    const rows = await h.db.selectFrom('scan_failures').select('id').where('scope', '=', `code:${giftId}`).execute();
    expect(rows.length).toBe(statuses.filter((s) => s === 400).length);
    // Whatever got through, the right code still opens the gift while tries are left, and takes its own row back.
    if (rows.length < BACKUP_CODE.wrongPerClient) {
      expect((await openWithCode(h, giftId, code)).statusCode).toBe(200);
      expect(await h.db.selectFrom('scan_failures').select('id').where('scope', '=', `code:${giftId}`).execute()).toHaveLength(rows.length);
    } else {
      expect((await openWithCode(h, giftId, code)).statusCode).toBe(429);
    }
  });

  it('a gift that does not exist answers 404 gift_not_found; an unpaid one is not ready', async () => {
    const h = get();
    const missing = await openWithCode(h, '0123456789abcdef0123456789abcdef', '12345678');
    expect(missing.statusCode).toBe(404);
    expect(json(missing).code).toBe('gift_not_found');
    const unpaid = await createGift(h, sender.cookie);
    await uploadVideo(h, sender.cookie, unpaid);
    const res = await openWithCode(h, unpaid, '12345678');
    expect(res.statusCode).toBe(403);
    expect(json(res).code).toBe('gift_not_ready');
  });

  it('the sender makes a new code in My Gifts: the old one stops working at once, the new one opens the gift', async () => {
    const h = get();
    const giftId = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const old = await codeOf(h, sender.cookie, giftId);
    const renew = (cookie: string) =>
      h.app.inject({ method: 'POST', url: `/api/gift-sender/gifts/${giftId}/backup-code`, headers: { cookie } });

    const stranger = await signIn(h, uniqueEmail('stranger'));
    expect((await renew(stranger.cookie)).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'POST', url: `/api/gift-sender/gifts/${giftId}/backup-code` })).statusCode).toBe(401);

    const res = await renew(sender.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const { backupCode } = json<{ backupCode: string }>(res);
    expect(backupCode).toMatch(/^\d{8}$/);
    expect(await codeOf(h, sender.cookie, giftId)).toBe(backupCode);
    if (backupCode !== old) {
      const stale = await openWithCode(h, giftId, old);
      expect(stale.statusCode).toBe(400);
    }
    expect((await openWithCode(h, giftId, backupCode)).statusCode).toBe(200);
  });

  it('a recipient session opens whichever of its gifts the code belongs to; a wrong code counts against each', async () => {
    const h = get();
    const email = uniqueEmail('maya');
    const first = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: email });
    const second = await activeGift(h, sender.cookie, { photo: photos.reference, recipientEmail: email });
    const recipient = await recipientSignIn(h, email);
    const post = (code: string, recipientId = recipient.recipientId) =>
      h.app.inject({
        method: 'POST',
        url: '/api/verification-recipient/open-with-code',
        headers: { cookie: recipient.cookie },
        payload: { code, recipient_id: recipientId },
      });

    const wrong = await post('00000000');
    // Extremely unlikely to be either gift's code; if it is, the test would say so plainly.
    expect(wrong.statusCode, wrong.body).toBe(400);
    for (const id of [first, second]) {
      const rows = await h.db.selectFrom('scan_failures').select('id').where('scope', '=', `code:${id}`).execute();
      expect(rows).toHaveLength(1);
    }
    expect((await post(await codeOf(h, sender.cookie, first), 'someone-else')).statusCode).toBe(403);
    const res = await post(await codeOf(h, sender.cookie, first));
    expect(res.statusCode, res.body).toBe(200);
    expect(json<ScanResponse>(res)).toMatchObject({ success: true, giftId: first, matchResult: { matched: true, giftId: first } });
    expect(revealCookie(res, first)).toBeTruthy();
    expect(await scansUsed(h, second)).toBe(0);
    // Without a session: 401.
    const anonymous = await h.app.inject({ method: 'POST', url: '/api/verification-recipient/open-with-code', payload: { code: '12345678' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('the payment confirmation e-mail carries the code and suggests writing it on the card', async () => {
    const h = get();
    const own = await signIn(h, uniqueEmail('payer'), 'Ravi');
    const giftId = await activeGift(h, own.cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya'), recipientName: 'Maya' });
    await h.jobs.runDue();
    const code = await codeOf(h, own.cookie, giftId);
    const mails = [];
    for (const file of (await readdir(h.outboxDir)).filter((f) => f.endsWith('.eml'))) {
      const mail = await simpleParser(await readFile(path.join(h.outboxDir, file)));
      if (mail.to && !Array.isArray(mail.to) && mail.to.text === own.email && mail.subject === texts.backupCode.emailSubject('Maya')) mails.push(mail);
    }
    expect(mails).toHaveLength(1);
    const text = mails[0]?.text ?? '';
    expect(text).toContain(texts.backupCode.emailCode(spacedBackupCode(code)));
    expect(text).toContain(texts.backupCode.writeOnCard);
    expect(mails[0]?.html).toContain(spacedBackupCode(code));
    // Once per gift: running the jobs again sends nothing more.
    await h.jobs.runDue();
    const again = (await readdir(h.outboxDir)).filter((f) => f.endsWith('.eml')).length;
    await h.jobs.runDue();
    expect((await readdir(h.outboxDir)).filter((f) => f.endsWith('.eml')).length).toBe(again);
  });

  it('the OpenAPI document carries the contract: the code call, its answers, and backupCode in the sender’s gifts', async () => {
    const h = get();
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = json<{ paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>> }>(res);
    for (const p of ['/api/verification-recipient/open-with-code/{giftId}', '/api/verification-recipient/open-with-code']) {
      const call = doc.paths[p]?.post;
      expect(JSON.stringify(call?.requestBody), p).toContain('"code"');
      expect(Object.keys(call?.responses ?? {}), p).toEqual(expect.arrayContaining(['200', '400', '429']));
      expect(JSON.stringify(call?.responses?.['200']), p).toContain('matchResult');
    }
    expect(JSON.stringify(doc.paths['/api/gift-sender/gifts']?.get?.responses)).toContain('backupCode');
    expect(JSON.stringify(doc.paths['/api/gift-sender/gifts/{giftId}']?.get?.responses)).toContain('backupCode');
    expect(JSON.stringify(doc.paths['/api/gift-sender/gifts/{giftId}/backup-code']?.post?.responses)).toContain('backupCode');
  });
});


