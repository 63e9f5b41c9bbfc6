import { expect } from 'vitest';
import type { MediaStorage } from '../src/adapters/media-storage.ts';
import {
  createHousekeepingService,
  DEFAULT_RETENTION,
  emptyReport,
  type HousekeepingDeps,
  type HousekeepingLog,
  type HousekeepingReport,
  type HousekeepingService,
  leftTotal,
} from '../src/modules/housekeeping/housekeeping.service.ts';
import { HOUSEKEEPING_FOLLOW_UP_MS, HOUSEKEEPING_INTERVAL_MS, housekeepingJob } from '../src/modules/housekeeping/housekeeping.jobs.ts';
import {
  createGift,
  createOrder,
  generateUploadUrl,
  GIFT_FIELDS,
  paidGift,
  payGift,
  uploadVideo,
  type UploadTarget,
} from './helpers/flows.ts';
import { mediaDeleteJob } from '../src/modules/my-gifts/my-gifts.jobs.ts';
import { describeEachDatabase, it, json, signIn, type Harness } from './helpers/harness.ts';
import { tinyMp4 } from './helpers/media.ts';
import { directScan, scanOf } from './helpers/recipient.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function recordingLog() {
  const lines: { level: string; details: object; message: string }[] = [];
  const log: HousekeepingLog = {
    info: (details, message) => lines.push({ level: 'info', details, message }),
    warn: (details, message) => lines.push({ level: 'warn', details, message }),
    error: (details, message) => lines.push({ level: 'error', details, message }),
  };
  return { log, lines };
}

function housekeeping(h: Harness, extra: Partial<HousekeepingDeps> = {}) {
  const { log, lines } = recordingLog();
  return {
    service: createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log, ...extra }),
    lines,
  };
}

/** Every file a gift's rows point at. */
async function giftFiles(h: Harness, giftId: string) {
  const gift = await h.db
    .selectFrom('gifts')
    .select('message_path')
    .where('id', '=', giftId)
    .executeTakeFirst();
  const photos = await h.db
    .selectFrom('gift_photos')
    .select('storage_path')
    .where('gift_id', '=', giftId)
    .execute();
  return [...photos.map((p) => p.storage_path), ...(gift?.message_path ? [gift.message_path] : [])];
}

async function exists(h: Harness, key: string) {
  return (await h.media.stat(key)) !== null;
}

const countWhere = async (h: Harness, table: 'gift_photos' | 'upload_intents' | 'orders', giftId: string) =>
  (await h.db.selectFrom(table).select('id').where('gift_id', '=', giftId).execute()).length;

describeEachDatabase('housekeeping', (get) => {
  it('removes a week-old unpaid gift with its rows and files; paid and younger gifts keep theirs', async () => {
    const h = get();
    const { cookie } = await signIn(h);

    // Day 0: an unpaid gift with a photo, an uploaded message and an open order; and a paid gift.
    const oldDraft = await createGift(h, cookie);
    await uploadVideo(h, cookie, oldDraft);
    expect((await createOrder(h, cookie, oldDraft)).statusCode).toBe(200);
    const paid = await paidGift(h, cookie);

    // Day 2: a draft whose message was PUT but never confirmed.
    h.clock.advance(2 * DAY);
    const youngDraft = await createGift(h, cookie);
    const gen = await generateUploadUrl(h, cookie, {
      giftId: youngDraft,
      fileType: 'video/mp4',
      fileName: 'message.mp4',
      messageType: 'video',
    });
    const unconfirmed = json<UploadTarget>(gen);
    const put = await h.app.inject({
      method: 'PUT',
      url: unconfirmed.uploadUrl,
      headers: { 'content-type': 'video/mp4' },
      payload: tinyMp4(),
    });
    expect(put.statusCode, put.body).toBe(200);

    // Day 8: the first two are 8 days old, the young draft 6.
    h.clock.advance(6 * DAY);
    const oldFiles = await giftFiles(h, oldDraft);
    const paidFiles = await giftFiles(h, paid);
    const youngFiles = await giftFiles(h, youngDraft);
    expect(oldFiles).toHaveLength(2); // photo + message
    expect(paidFiles).toHaveLength(2);
    expect(youngFiles).toHaveLength(1);
    for (const key of [...oldFiles, ...paidFiles, ...youngFiles, unconfirmed.filePath])
      expect(await exists(h, key), key).toBe(true);

    const { service, lines } = housekeeping(h);
    const report = await service.run();
    expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
    expect(report.unpaidGifts).toBeGreaterThanOrEqual(1);
    expect(report.filesFailed).toBe(0);

    // The old draft is gone with every row and file.
    expect(
      await h.db.selectFrom('gifts').select('id').where('id', '=', oldDraft).executeTakeFirst(),
    ).toBeUndefined();
    expect(await countWhere(h, 'gift_photos', oldDraft)).toBe(0);
    expect(await countWhere(h, 'upload_intents', oldDraft)).toBe(0);
    expect(await countWhere(h, 'orders', oldDraft)).toBe(0);
    // Its files go by the one media.delete job its deletion queued (modules/gift-deletion), naming every one.
    const queued = await h.db.selectFrom('jobs').select('payload').where('kind', '=', 'media.delete').where('status', '=', 'queued').execute();
    const oldDraftJobs = queued.map((j) => (JSON.parse(j.payload) as { keys: string[] }).keys).filter((keys) => keys.some((k) => k.includes(oldDraft)));
    expect(oldDraftJobs).toHaveLength(1);
    expect(oldDraftJobs[0]).toEqual(expect.arrayContaining(oldFiles));
    await h.jobs.runDue();
    for (const key of oldFiles) expect(await exists(h, key), key).toBe(false);

    // The paid gift of the same age keeps everything (its expired upload intent goes, not the message it made).
    const paidRow = await h.db
      .selectFrom('gifts')
      .selectAll()
      .where('id', '=', paid)
      .executeTakeFirstOrThrow();
    expect(paidRow.status).toBe('active');
    expect(await giftFiles(h, paid)).toEqual(paidFiles);
    expect(await countWhere(h, 'orders', paid)).toBe(1);
    for (const key of paidFiles) expect(await exists(h, key), key).toBe(true);
    expect(await countWhere(h, 'upload_intents', paid)).toBe(0);

    // The 6-day-old draft stays with its photo; only its long-expired, unconfirmed upload goes.
    expect(
      await h.db.selectFrom('gifts').select('id').where('id', '=', youngDraft).executeTakeFirst(),
    ).toBeDefined();
    expect(await giftFiles(h, youngDraft)).toEqual(youngFiles);
    for (const key of youngFiles) expect(await exists(h, key), key).toBe(true);
    expect(await countWhere(h, 'upload_intents', youngDraft)).toBe(0);
    expect(await exists(h, unconfirmed.filePath)).toBe(false);

    // Running again finds nothing and changes nothing.
    const again = await service.run();
    expect(again).toMatchObject({ unpaidGifts: 0, uploadIntents: 0, filesDeleted: 0, filesFailed: 0 });
    for (const key of [...paidFiles, ...youngFiles]) expect(await exists(h, key), key).toBe(true);

    // The sender's session is live and the paid gift still answers.
    const read = await h.app.inject({
      method: 'GET',
      url: `/api/gift-sender/gifts/${paid}`,
      headers: { cookie },
    });
    expect(read.statusCode, read.body).toBe(200);
  });

  it('empties a gift a week after its Premium plan ended; the gift, its payment and Lifetime gifts stay', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const premium = await paidGift(h, cookie);
    const lifetime = await createGift(h, cookie, { ...GIFT_FIELDS, planId: 'lifetime_us' });
    await uploadVideo(h, cookie, lifetime);
    await payGift(h, cookie, lifetime);
    const premiumFiles = await giftFiles(h, premium);
    const lifetimeFiles = await giftFiles(h, lifetime);
    expect(premiumFiles).toHaveLength(2);

    // 36 days after payment: the 30-day plan ended 6 days ago, inside the grace week.
    h.clock.advance(36 * DAY);
    const { service } = housekeeping(h);
    await service.run();
    for (const key of premiumFiles) expect(await exists(h, key), key).toBe(true);

    // 38 days: the message, the photo and its recognition data go; the gift and its payment stay.
    h.clock.advance(2 * DAY);
    const report = await service.run();
    // (Other tests' gifts share this database, so the report may count theirs too.)
    expect(report.endedGifts).toBeGreaterThanOrEqual(1);
    expect(report.filesFailed).toBe(0);
    for (const key of premiumFiles) expect(await exists(h, key), key).toBe(false);
    const row = await h.db
      .selectFrom('gifts')
      .selectAll()
      .where('id', '=', premium)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', message_path: null, message_text: null });
    expect(await countWhere(h, 'gift_photos', premium)).toBe(0);
    expect(await countWhere(h, 'orders', premium)).toBe(1);

    // A Lifetime gift never ends.
    expect(await giftFiles(h, lifetime)).toEqual(lifetimeFiles);
    for (const key of lifetimeFiles) expect(await exists(h, key), key).toBe(true);

    // The gift link still greets, and a scan gets the plan's "expired" answer, not a crash.
    const scan = await directScan(h, premium, await scanOf('photos/001-canon.jpg'));
    expect(scan.statusCode, scan.body).toBe(410);
    expect((await service.run()).endedGifts).toBe(0);
  });

  it('removes expired codes, resend slots, sessions, grants, old scan failures and webhook events; live ones stay', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const now = h.clock.now().getTime();
    const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    const tag = giftId.slice(0, 8);
    const id = (name: string) => `${name}-${tag}`;

    const code = (name: string, expiresIn: number) => ({
      id: id(name),
      purpose: 'sender' as const,
      destination: `${name}-${tag}@example.com`,
      code_hash: 'x',
      expires_at: at(expiresIn),
      attempts: 0,
      consumed_at: null,
      created_at: at(expiresIn - 10 * MINUTE),
    });
    await h.db
      .insertInto('verification_codes')
      .values([code('code-old', -2 * DAY), code('code-recent', -HOUR), code('code-live', 5 * MINUTE)])
      .execute();
    await h.db
      .insertInto('code_resends')
      .values([
        { purpose: 'sender', destination: id('resend-old'), sent_at: at(-2 * MINUTE) },
        { purpose: 'recipient', destination: id('resend-live'), sent_at: at(-10_000) },
      ])
      .execute();
    await h.db
      .insertInto('sessions')
      .values([
        {
          token_hash: id('session-old'),
          kind: 'sender',
          subject: 's',
          created_at: at(-31 * DAY),
          expires_at: at(-MINUTE),
        },
        {
          token_hash: id('session-live'),
          kind: 'recipient',
          subject: 'r',
          created_at: at(-HOUR),
          expires_at: at(HOUR),
        },
      ])
      .execute();
    await h.db
      .insertInto('reveal_grants')
      .values([
        {
          token_hash: id('grant-old'),
          gift_id: giftId,
          created_at: at(-6 * MINUTE),
          expires_at: at(-MINUTE),
        },
        {
          token_hash: id('grant-live'),
          gift_id: giftId,
          created_at: at(-MINUTE),
          expires_at: at(4 * MINUTE),
        },
      ])
      .execute();
    await h.db
      .insertInto('scan_failures')
      .values([
        { id: id('failure-old'), scope: `gift:${giftId}`, created_at: at(-11 * MINUTE) },
        { id: id('failure-live'), scope: `gift:${giftId}`, created_at: at(-MINUTE) },
      ])
      .execute();
    await h.db
      .insertInto('webhook_events')
      .values([
        { id: id('event-old'), provider: 'razorpay', event_type: 'order.paid', received_at: at(-31 * DAY) },
        { id: id('event-live'), provider: 'razorpay', event_type: 'order.paid', received_at: at(-29 * DAY) },
      ])
      .execute();

    const { service } = housekeeping(h);
    const report = await service.run();
    for (const key of [
      'verificationCodes',
      'codeResends',
      'sessions',
      'revealGrants',
      'scanFailures',
      'webhookEvents',
    ] as const) {
      expect(report[key], key).toBeGreaterThanOrEqual(1);
    }

    const ids = async () => ({
      codes: (
        await h.db.selectFrom('verification_codes').select('id').where('id', 'like', `%-${tag}`).execute()
      ).map((r) => r.id),
      resends: (
        await h.db
          .selectFrom('code_resends')
          .select('destination')
          .where('destination', 'like', `%-${tag}`)
          .execute()
      ).map((r) => r.destination),
      sessions: (
        await h.db
          .selectFrom('sessions')
          .select('token_hash')
          .where('token_hash', 'like', `%-${tag}`)
          .execute()
      ).map((r) => r.token_hash),
      grants: (
        await h.db.selectFrom('reveal_grants').select('token_hash').where('gift_id', '=', giftId).execute()
      ).map((r) => r.token_hash),
      failures: (
        await h.db.selectFrom('scan_failures').select('id').where('scope', '=', `gift:${giftId}`).execute()
      ).map((r) => r.id),
      events: (
        await h.db.selectFrom('webhook_events').select('id').where('id', 'like', `%-${tag}`).execute()
      ).map((r) => r.id),
    });
    const expected = {
      codes: [id('code-live'), id('code-recent')],
      resends: [id('resend-live')],
      sessions: [id('session-live')],
      grants: [id('grant-live')],
      failures: [id('failure-live')],
      events: [id('event-live')],
    };
    const sorted = (o: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, [...v].sort()]));
    expect(sorted(await ids())).toEqual(sorted(expected));

    // Twice is harmless: nothing more goes.
    await service.run();
    expect(sorted(await ids())).toEqual(sorted(expected));
    const read = await h.app.inject({
      method: 'GET',
      url: `/api/gift-sender/gifts/${giftId}`,
      headers: { cookie },
    });
    expect(read.statusCode, read.body).toBe(200);
  });

  it('keeps a stale unpaid gift whose order was paid, or whose checkout was just reopened', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const orderPaid = await createGift(h, cookie);
    await uploadVideo(h, cookie, orderPaid);
    expect((await createOrder(h, cookie, orderPaid)).statusCode).toBe(200);
    // The payment reached the order but not (yet) the gift.
    await h.db.updateTable('orders').set({ status: 'paid' }).where('gift_id', '=', orderPaid).execute();
    const reopened = await createGift(h, cookie);
    await uploadVideo(h, cookie, reopened);
    expect((await createOrder(h, cookie, reopened)).statusCode).toBe(200);

    h.clock.advance(8 * DAY);
    expect((await createOrder(h, cookie, reopened)).statusCode).toBe(200);
    const files = [...(await giftFiles(h, orderPaid)), ...(await giftFiles(h, reopened))];
    expect(files).toHaveLength(4);

    const { service, lines } = housekeeping(h);
    await service.run();
    expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
    for (const giftId of [orderPaid, reopened]) {
      expect(
        await h.db.selectFrom('gifts').select('id').where('id', '=', giftId).executeTakeFirst(),
        giftId,
      ).toBeDefined();
      expect(await countWhere(h, 'orders', giftId)).toBe(1);
    }
    for (const key of files) expect(await exists(h, key), key).toBe(true);
  });

  it('refuses to confirm an upload long after its URL expired, before housekeeping may delete its file', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    const gen = await generateUploadUrl(h, cookie, {
      giftId,
      fileType: 'video/mp4',
      fileName: 'm.mp4',
      messageType: 'video',
    });
    const t = json<UploadTarget>(gen);
    const put = await h.app.inject({
      method: 'PUT',
      url: t.uploadUrl,
      headers: { 'content-type': 'video/mp4' },
      payload: tinyMp4(),
    });
    expect(put.statusCode, put.body).toBe(200);
    h.clock.advance(HOUR + 7 * HOUR);
    const confirm = await h.app.inject({
      method: 'POST',
      url: '/api/gift-sender/confirm-upload',
      headers: { cookie },
      payload: { giftId, publicUrl: t.publicUrl, messageType: 'video', filePath: t.filePath },
    });
    expect(confirm.statusCode, confirm.body).toBe(400);
    const gift = await h.db
      .selectFrom('gifts')
      .select(['status', 'message_path'])
      .where('id', '=', giftId)
      .executeTakeFirstOrThrow();
    expect(gift).toEqual({ status: 'draft', message_path: null });
  });

  it('keeps deleting while batches come back full, within its budget, and reports what is left', async () => {
    const h = get();
    const expired = h.clock.now().getTime() - MINUTE;
    const insert = (n: number, tag: string) =>
      h.db
        .insertInto('sessions')
        .values(
          Array.from({ length: n }, (_, i) => ({
            token_hash: `batch-${tag}-${i}-${expired}`,
            kind: 'sender' as const,
            subject: 's',
            created_at: new Date(expired - HOUR).toISOString(),
            expires_at: new Date(expired).toISOString(),
          })),
        )
        .execute();
    const left = async () =>
      (await h.db.selectFrom('sessions').select('token_hash').where('token_hash', 'like', `batch-%-${expired}`).execute()).length;

    // 60 rows in batches of 2: 30 full batches (the old cap was 25 a run), all gone in one run within its budget.
    await insert(60, 'a');
    const whole = await housekeeping(h, { rowBatchSize: 2, budgetMs: 60_000 }).service.run();
    expect(whole.sessions).toBe(60);
    expect(whole.left).toEqual({});
    expect(await left()).toBe(0);

    // A spent budget (0 ms): every task takes its first batch, then the run stops and says how much is left.
    await insert(7, 'b');
    const { service, lines } = housekeeping(h, { rowBatchSize: 2, budgetMs: 0 });
    const spent = await service.run();
    expect(spent.sessions).toBe(2);
    expect(spent.left).toEqual({ sessions: 5 });
    expect(leftTotal(spent)).toBe(5);
    expect(lines.find((l) => l.message === 'housekeeping: budget spent with work left')?.details).toMatchObject({ left: { sessions: 5 } });
    expect(await left()).toBe(5);

    // The budget is wall time: a clock that moves 100 ms per look stops a 250 ms run after its third round.
    let t = 0;
    const rounds = await housekeeping(h, { rowBatchSize: 2, budgetMs: 250, timer: () => (t += 100) }).service.run();
    expect(rounds.sessions).toBeGreaterThanOrEqual(2);
    expect(rounds.sessions + (rounds.left.sessions ?? 0)).toBe(5);

    expect((await housekeeping(h, { rowBatchSize: 2 }).service.run()).left).toEqual({});
    expect(await left()).toBe(0);
  });

  it('the job runs again a minute later when work is left, else in an hour', async () => {
    const h = get();
    const { log } = recordingLog();
    const now = h.clock.now().getTime();
    const service = (left: HousekeepingReport['left']): HousekeepingService => ({
      retention: DEFAULT_RETENTION,
      run: () => Promise.resolve({ ...emptyReport(), left }),
    });
    const ctx = { id: 'x', attempt: 1, signal: new AbortController().signal };
    const later = await housekeepingJob({ service: service({ verificationCodes: 40_000 }), clock: h.clock, log }).run({}, ctx);
    expect(later).toEqual({ rescheduleAt: new Date(now + HOUSEKEEPING_FOLLOW_UP_MS) });
    const hourly = await housekeepingJob({ service: service({}), clock: h.clock, log }).run({}, ctx);
    expect(hourly).toEqual({ rescheduleAt: new Date(now + HOUSEKEEPING_INTERVAL_MS) });
  });

  it('gift batches go on while they come back full too: five stale drafts in batches of two, one run', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const drafts: string[] = [];
    for (let i = 0; i < 5; i++) drafts.push(await createGift(h, cookie));
    h.clock.advance(8 * DAY);

    const report = await housekeeping(h, { batchSize: 2, budgetMs: 60_000 }).service.run();
    expect(report.unpaidGifts).toBeGreaterThanOrEqual(5);
    expect(report.left).toEqual({});
    expect(await h.db.selectFrom('gifts').select('id').where('id', 'in', drafts).execute()).toEqual([]);
  });

  it('still removes the rows when a file cannot be deleted; the job keeps it to retry', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await createGift(h, cookie);
    await uploadVideo(h, cookie, giftId);
    const [photo, message] = await giftFiles(h, giftId);
    h.clock.advance(8 * DAY);

    const { service, lines } = housekeeping(h);
    const report = await service.run();
    expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
    expect(report.unpaidGifts).toBeGreaterThanOrEqual(1);
    expect(
      await h.db.selectFrom('gifts').select('id').where('id', '=', giftId).executeTakeFirst(),
    ).toBeUndefined();

    // The files go by the media.delete job queued with the rows: a file that will not go fails the attempt, named.
    const job = (await h.db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', 'media.delete').execute()).find((j) =>
      j.payload.includes(giftId),
    );
    const { keys } = JSON.parse(job!.payload) as { keys: string[] };
    expect(keys).toEqual(expect.arrayContaining([photo, message]));
    const media: MediaStorage = {
      ...h.media,
      delete: (key) => (key === message ? Promise.reject(new Error('disk says no')) : h.media.delete(key)),
    };
    const attempt = { id: job!.id, attempt: 1, signal: new AbortController().signal };
    await expect(mediaDeleteJob({ media }).run({ keys }, attempt)).rejects.toThrow(message!);
    expect(await exists(h, photo!)).toBe(false);
    // Orphaned but harmless (no row points at it), and not lost: the retry removes it.
    expect(await exists(h, message!)).toBe(true);
    await mediaDeleteJob({ media: h.media }).run({ keys }, { ...attempt, attempt: 2 });
    expect(await exists(h, message!)).toBe(false);
  });
});
