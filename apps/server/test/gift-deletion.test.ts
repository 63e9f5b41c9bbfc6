import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { beforeAll, expect } from 'vitest';
import { isPostgres } from '../src/db/dialect.ts';
import { renderJob } from '../src/jobs/keys.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { deleteGifts, GiftChangedError, listGiftFiles } from '../src/modules/gift-deletion/gift-deletion.ts';
import { generateUploadUrl, storedMessageKey, type UploadTarget } from './helpers/flows.ts';
import { describeEachDatabase, it, json, putUpload, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { multipart, tinyMp4 } from './helpers/media.ts';
import { activeGift, consentedReaction, directScan, REACTION_WEBM, revealCookie, scanPhotos } from './helpers/recipient.ts';

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

/** Every foreign key as "table.column → parent ON DELETE action". */
async function foreignKeys(h: Harness): Promise<string[]> {
  const rows = isPostgres(h.db)
    ? (
        await sql<{ tbl: string; col: string; parent: string; action: string }>`
          SELECT c.conrelid::regclass::text AS tbl, a.attname AS col, c.confrelid::regclass::text AS parent,
                 CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'r' THEN 'RESTRICT' WHEN 'n' THEN 'SET NULL'
                                    WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END AS action
          FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.contype = 'f'`.execute(h.db)
      ).rows
    : (
        await sql<{ tbl: string; col: string; parent: string; action: string }>`
          SELECT m.name AS tbl, p."from" AS col, p."table" AS parent, p.on_delete AS action
          FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) p WHERE m.type = 'table'`.execute(h.db)
      ).rows;
  return rows.map((r) => `${r.tbl}.${r.col} → ${r.parent} ON DELETE ${r.action.toUpperCase()}`).sort();
}

async function indexNames(h: Harness, tables: string[]): Promise<string[]> {
  const rows = isPostgres(h.db)
    ? (await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename IN (${sql.join(tables)})`.execute(h.db)).rows
    : (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (${sql.join(tables)})`.execute(h.db)).rows;
  return rows.map((r) => r.name);
}

/** A paid Lifetime gift with a row in every table that hangs off a gift, and a job of every kind keyed by it. */
async function giftWithEverything(h: Harness, cookie: string) {
  const giftId = await activeGift(h, cookie, { planId: 'lifetime_us', photo: photos.reference, recipientEmail: uniqueEmail('maya') });
  // An upload target whose bytes arrived (a replacement message not confirmed).
  const target = json<UploadTarget>(await generateUploadUrl(h, cookie, { giftId, fileType: 'video/mp4', fileName: 'm.mp4', messageType: 'video' }));
  expect((await putUpload(h, target.uploadUrl, tinyMp4())).statusCode).toBe(200);
  // A delivery (its send job), a reveal (grant, the "opened" notice), a reaction with its recording.
  const delivery = await h.app.inject({
    method: 'POST',
    url: '/api/scheduled-messages',
    headers: { cookie },
    payload: { giftId, recipientContact: 'maya@example.com', contactType: 'email', scheduledDatetime: new Date(h.clock.now().getTime() + 3_600_000).toISOString(), timezone: 'UTC' },
  });
  expect(delivery.statusCode, delivery.body).toBe(200);
  const grant = revealCookie(await directScan(h, giftId, photos.genuine), giftId) ?? '';
  expect(grant).not.toBe('');
  const reactionId = await consentedReaction(h, giftId, grant);
  const started = await h.app.inject({
    method: 'POST',
    url: '/api/reactions/start-synced-recording',
    payload: { reactionId, mediaStartTime: 1732170000000, playbackSessionId: 'playback-session-1' },
  });
  expect(started.statusCode, started.body).toBe(200);
  const recording = multipart({ reactionId, recordingQuality: 'high', durationSeconds: '3', mediaEndTime: '2', syncOffsetMs: '0' }, [
    { name: 'reaction', filename: 'reaction.webm', type: 'video/webm', data: readFileSync(REACTION_WEBM) },
  ]);
  const uploaded = await h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: recording.headers, payload: recording.payload });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  // Failed scans and backup-code tries counted against it, a render job of its message, and an open order.
  const now = h.clock.now().toISOString();
  await h.db
    .insertInto('scan_failures')
    .values([
      { id: `f-gift-${giftId}`, scope: `gift:${giftId}`, created_at: now },
      { id: `f-code-${giftId}`, scope: `code:${giftId}`, created_at: now },
    ])
    .execute();
  const message = await storedMessageKey(h, giftId);
  await enqueue(h.db, h.clock.now(), 'message.render', { giftId, key: message }, renderJob(giftId, message, 'sender-1'));
  await h.db
    .insertInto('orders')
    .values({ id: `open-${giftId}`, gift_id: giftId, provider: 'test', provider_order_id: `open-${giftId}`, amount_minor: 100, currency: 'USD', status: 'created', payment_id: null, paid_at: null, created_at: now, updated_at: now })
    .execute();
  return { giftId, intentFile: target.filePath };
}

const GIFT_CHILDREN = ['gift_photos', 'upload_intents', 'scheduled_messages', 'reveal_grants', 'reactions'] as const;

async function rowsOf(h: Harness, giftId: string) {
  const counts: Record<string, number> = {};
  counts.gifts = (await h.db.selectFrom('gifts').select('id').where('id', '=', giftId).execute()).length;
  for (const table of GIFT_CHILDREN) counts[table] = (await h.db.selectFrom(table).select('gift_id').where('gift_id', '=', giftId).execute()).length;
  counts.scan_failures = (await h.db.selectFrom('scan_failures').select('id').where('scope', 'in', [`gift:${giftId}`, `code:${giftId}`]).execute()).length;
  return counts;
}

/** Jobs whose key names the gift or one of its deliveries. */
async function jobsOf(h: Harness, giftId: string, deliveryIds: string[]) {
  const jobs = await h.db.selectFrom('jobs').select(['kind', 'key']).execute();
  return jobs.filter((j) => j.key !== null && (j.key.includes(giftId) || deliveryIds.some((d) => j.key!.includes(d))));
}

const mediaDeleteJobs = async (h: Harness) =>
  (await h.db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', 'media.delete').execute()).map((j) => ({
    id: j.id,
    keys: (JSON.parse(j.payload) as { keys: string[] }).keys,
  }));

describeEachDatabase('deleting a gift: one way, everything under it', (get) => {
  it('every foreign key says what deleting its parent does; the rebuilt tables keep their indexes', async () => {
    const h = get();
    expect(await foreignKeys(h)).toEqual(
      [
        'contributions.gift_id → gifts ON DELETE CASCADE',
        'contributions.invitation_id → group_invitations ON DELETE CASCADE',
        'gift_photos.gift_id → gifts ON DELETE CASCADE',
        'gifts.sender_id → senders ON DELETE RESTRICT',
        // The merchant API (decision 058): a merchant's keys and webhooks go with it; its gifts' rows hold it.
        'merchant_api_keys.merchant_id → merchants ON DELETE CASCADE',
        'merchant_gifts.merchant_id → merchants ON DELETE RESTRICT',
        'merchant_webhook_attempts.webhook_id → merchant_webhooks ON DELETE CASCADE',
        'merchant_webhooks.merchant_id → merchants ON DELETE CASCADE',
        'group_gifts.gift_id → gifts ON DELETE CASCADE',
        'group_invitations.gift_id → gifts ON DELETE CASCADE',
        'push_subscriptions.sender_id → senders ON DELETE CASCADE',
        'reactions.gift_id → gifts ON DELETE CASCADE',
        'reveal_grants.gift_id → gifts ON DELETE CASCADE',
        'scan_events.gift_id → gifts ON DELETE CASCADE',
        'scheduled_messages.gift_id → gifts ON DELETE CASCADE',
        'scheduled_messages.sender_id → senders ON DELETE RESTRICT',
        'upload_intents.gift_id → gifts ON DELETE CASCADE',
      ].sort(),
    );
    expect(await indexNames(h, ['gifts', 'scheduled_messages', 'upload_intents', 'reveal_grants'])).toEqual(
      expect.arrayContaining([
        'gifts_sender_idx',
        'gifts_recipient_email_idx',
        'scheduled_messages_due_idx',
        'scheduled_messages_gift_idx',
        // What a cascade from a deleted gift looks its children up by.
        'upload_intents_gift_idx',
        'reveal_grants_gift_idx',
      ]),
    );
  });

  it('removes every row under a gift and queues all its files in one media.delete job; a paid order and other gifts stay', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const other = await activeGift(h, cookie, { photo: photos.reference, recipientEmail: uniqueEmail('ravi') });
    const { giftId, intentFile } = await giftWithEverything(h, cookie);
    const deliveryIds = (await h.db.selectFrom('scheduled_messages').select('id').where('gift_id', '=', giftId).execute()).map((d) => d.id);
    expect(deliveryIds).toHaveLength(1);
    expect(await rowsOf(h, giftId)).toEqual({ gifts: 1, gift_photos: 1, upload_intents: 2, scheduled_messages: 1, reveal_grants: 1, reactions: 1, scan_failures: 2 });
    const keyed = (await jobsOf(h, giftId, deliveryIds)).map((j) => j.kind).sort();
    expect(keyed).toEqual(expect.arrayContaining(['delivery.send', 'message.render', 'notice.fanout', 'payment.confirmation']));

    const files = await listGiftFiles(h.db, [giftId]);
    const reaction = await h.db.selectFrom('reactions').select('file_path').where('gift_id', '=', giftId).executeTakeFirstOrThrow();
    const photo = await h.db.selectFrom('gift_photos').select('storage_path').where('gift_id', '=', giftId).executeTakeFirstOrThrow();
    const stored = [photo.storage_path, await storedMessageKey(h, giftId), intentFile, reaction.file_path!];
    expect(files).toEqual(expect.arrayContaining(stored));
    // (The first upload target names where the browser's bytes landed before confirm stored them as the message.)
    for (const key of stored) expect(await h.media.stat(key), key).not.toBeNull();
    const otherFiles = (await Promise.all((await listGiftFiles(h.db, [other])).map(async (k) => ((await h.media.stat(k)) ? k : null)))).filter(
      (k) => k !== null,
    );
    expect(otherFiles.length).toBeGreaterThanOrEqual(2); // photo and message
    const otherRows = await rowsOf(h, other);
    const queuedBefore = new Set((await mediaDeleteJobs(h)).map((j) => j.id));

    expect(await h.db.transaction().execute((trx) => deleteGifts(trx, [giftId], h.clock.now()))).toBe(1);

    expect(await rowsOf(h, giftId)).toEqual({ gifts: 0, gift_photos: 0, upload_intents: 0, scheduled_messages: 0, reveal_grants: 0, reactions: 0, scan_failures: 0 });
    expect(await jobsOf(h, giftId, deliveryIds)).toEqual([]);
    expect((await h.db.selectFrom('orders').select('status').where('gift_id', '=', giftId).execute()).map((o) => o.status)).toEqual(['paid']);
    const queued = (await mediaDeleteJobs(h)).filter((j) => !queuedBefore.has(j.id));
    expect(queued).toHaveLength(1);
    expect([...queued[0]!.keys].sort()).toEqual([...files].sort());

    await h.jobs.runDue();
    for (const key of files) expect(await h.media.stat(key), key).toBeNull();
    // The sender's other gift keeps every row and file.
    expect(await rowsOf(h, other)).toEqual(otherRows);
    for (const key of otherFiles) expect(await h.media.stat(key), key).not.toBeNull();
  });

  it('only unpaid (housekeeping): a gift paid meanwhile rolls everything back; a sender with gifts cannot be deleted', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const paid = await activeGift(h, cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya') });
    const unpaid = await activeGift(h, cookie, { photo: photos.reference, recipientEmail: uniqueEmail('maya'), pay: false });
    const before = { paid: await rowsOf(h, paid), unpaid: await rowsOf(h, unpaid) };
    await expect(h.db.transaction().execute((trx) => deleteGifts(trx, [unpaid, paid], h.clock.now(), { onlyUnpaid: true }))).rejects.toBeInstanceOf(
      GiftChangedError,
    );
    expect({ paid: await rowsOf(h, paid), unpaid: await rowsOf(h, unpaid) }).toEqual(before);

    // The gifts (and their deliveries) hold the sender: an account goes only through its gifts' deletion.
    const { sender_id } = await h.db.selectFrom('gifts').select('sender_id').where('id', '=', paid).executeTakeFirstOrThrow();
    await expect(h.db.deleteFrom('senders').where('id', '=', sender_id).execute()).rejects.toThrow();
    expect(await h.db.selectFrom('senders').select('id').where('id', '=', sender_id).execute()).toHaveLength(1);
  });
});
