import { API } from '@giftlens/contract/routes';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { deriveKey, hmacHex } from '../src/lib/crypto.ts';
import { DATABASE_TARGETS, type TestDatabase } from '../test/helpers/databases.ts';
import { tinyMp4 } from '../test/helpers/media.ts';
import { startTestSmtp, type TestSmtp } from '../test/helpers/smtp.ts';
import { gatedFfprobe } from './faults/ffprobe-gate.ts';
import { Client, freePort, startServer, until, type ServerProcess } from './faults/server-process.ts';

/**
 * `npm run test:faults`: a real server process (the compiled apps/server/dist/main.js, jobs inside) on a temporary
 * DATA_DIR, a loopback port and a loopback SMTP server, killed with SIGKILL in the middle of an upload, of a render
 * storing its rendition, of a payment verification and a webhook, and of a delivery send; then restarted, and checked
 * that nothing is half-written.
 */

const SESSION_SECRET = 'faults-session-secret-0123456789abcdef0123456789';
const WEBHOOK_SECRET = deriveKey(SESSION_SECRET, 'test-payments-webhook');
/** Every column that names a file under DATA_DIR/media. */
const PATH_COLUMNS = [
  ['gifts', 'message_path'],
  ['gifts', 'message_poster_path'],
  ['gift_photos', 'storage_path'],
  ['upload_intents', 'file_path'],
  ['reactions', 'file_path'],
] as const;

async function filesUnder(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(full, base)));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

/** How the server's PostgreSQL connections name themselves, so the test can tell them from its own. */
const SERVER_APP_NAME = 'giftlens-faults-server';
const withApplicationName = (url: string, name: string) => {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
};

for (const target of DATABASE_TARGETS) {
  describe.skipIf(target.unavailable !== null)(`kill -9 of a real server [${target.name}]`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let db: Db;
    let smtp: TestSmtp;
    let port: number;
    let server: ServerProcess;
    const figures: string[] = [];
    const sender = new Client(() => server.origin);
    const mediaDir = () => path.join(dataDir, 'media');
    /** Where the ffprobe in front of the real one (`gatedFfprobe`) waits: `waiting` when it does, `open` to go on. */
    const renderGate = () => path.join(dataDir, 'render-gate');
    const tmpDir = () => path.join(mediaDir(), '.tmp');

    async function start() {
      server = await startServer(
        {
          DATA_DIR: dataDir,
          DATABASE_URL: database.url ? withApplicationName(database.url, SERVER_APP_NAME) : '',
          SMTP_URL: smtp.url,
          SESSION_SECRET,
          WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
          PATH: `${path.join(dataDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
        },
        port,
      );
      return server.readyMs;
    }
    let killedAt = 0;
    async function kill() {
      killedAt = Date.now();
      await server.kill9();
    }
    async function restarted(what: string) {
      const readyMs = await start();
      figures.push(
        `${what}: killed, answering again ${Date.now() - killedAt} ms later (start ${readyMs} ms)`,
      );
    }
    async function restart(what: string) {
      await kill();
      await restarted(what);
    }
    const gift = (id: string) =>
      db.selectFrom('gifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const ordersOf = (giftId: string) =>
      db.selectFrom('orders').selectAll().where('gift_id', '=', giftId).execute();

    /** Files under media/ that no row names, and rows naming a file that is not there. */
    async function orphans() {
      const files = (await filesUnder(mediaDir())).filter((f) => !f.startsWith('.tmp/'));
      const named = new Set<string>();
      for (const [table, column] of PATH_COLUMNS) {
        const rows = await sql<{
          p: string | null;
        }>`select ${sql.ref(column)} as p from ${sql.table(table)}`.execute(db);
        for (const r of rows.rows) if (r.p) named.add(r.p);
      }
      const photos = await db.selectFrom('gift_photos').select('storage_path').execute();
      const present = new Set(files);
      return {
        files: files.filter((f) => !named.has(f)),
        rows: photos.map((p) => p.storage_path).filter((p) => !present.has(p)),
      };
    }

    const newGift = () => sender.newGift();
    const uploadUrl = (giftId: string, size: number) =>
      sender.ok<{ uploadUrl: string; publicUrl: string; filePath: string }>('POST', API.generateUploadUrl, {
        giftId,
        fileType: 'video/mp4',
        fileName: 'message.mp4',
        messageType: 'video',
        fileSize: size,
      });
    async function putWhole(url: string, data: Buffer) {
      const res = await fetch(new URL(url, server.origin), {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: data,
      });
      return res.status;
    }
    async function messageUploaded(giftId: string) {
      const data = tinyMp4();
      const target = await uploadUrl(giftId, data.length);
      expect(await putWhole(target.uploadUrl, data)).toBe(200);
      await sender.ok('POST', API.confirmUpload, {
        giftId,
        publicUrl: target.publicUrl,
        messageType: 'video',
        filePath: target.filePath,
      });
    }
    function signedWebhook(orderId: string, paymentId: string) {
      const body = Buffer.from(
        JSON.stringify({
          event: 'payment.captured',
          payload: { payment: { entity: { id: paymentId, order_id: orderId } } },
        }),
      );
      return { body, signature: hmacHex(WEBHOOK_SECRET, body) };
    }
    const postWebhook = (w: { body: Buffer; signature: string }, eventId: string) =>
      fetch(`${server.origin}${API.paymentWebhook}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': w.signature,
          'x-razorpay-event-id': eventId,
        },
        body: w.body,
      });

    /**
     * Runs `during` while this test holds a lock the server's payment transaction needs: on PostgreSQL the gift's
     * row (the server has already marked the order paid in its open transaction and waits to mark the gift), on
     * SQLite the database's write lock (the server waits inside its transaction). The kill lands there.
     */
    async function whileLocked(giftId: string, during: () => Promise<void>) {
      await db.connection().execute(async (conn) => {
        if (target.name === 'postgres') {
          await sql`begin`.execute(conn);
          await sql`select id from gifts where id = ${giftId} for update`.execute(conn);
        } else {
          await sql`begin immediate`.execute(conn);
        }
        try {
          await during();
        } finally {
          await sql`rollback`.execute(conn);
        }
      });
    }
    /** PostgreSQL: the server's transaction is waiting on our lock (so it has written its first rows). */
    const serverWaitsOnLock = async () => {
      if (target.name !== 'postgres') return new Promise<boolean>((r) => setTimeout(() => r(true), 500));
      const rows = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "gifts"%'`.execute(
        db,
      );
      return (rows.rows[0]?.n ?? 0) > 0;
    };

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), `giftlens-faults-${target.name}-`));
      await gatedFfprobe(path.join(dataDir, 'bin'), renderGate());
      database = await target.create(dataDir);
      db = database.db;
      smtp = await startTestSmtp();
      port = await freePort();
      const readyMs = await start();
      figures.push(`first start: ${readyMs} ms to the first answer`);
      const email = `faults-${Date.now().toString(36)}@example.com`;
      await sender.signIn(email, (e) => smtp.codeFor(e));
    }, 120_000);

    afterAll(async () => {
      console.log(`faults [${target.name}]\n  ${figures.join('\n  ')}`);
      await server?.stop();
      await smtp?.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }, 60_000);

    it('killed during an upload: no message, no file; housekeeping removes the stale part; the retry works once', async () => {
      const giftId = await newGift();
      const size = 8 * 1024 * 1024;
      const target1 = await uploadUrl(giftId, size);
      // Half the file, then the server dies with the rest still coming.
      const put = request(new URL(target1.uploadUrl, server.origin), {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4', 'content-length': String(size) },
      });
      const putDone = new Promise<string>((resolve) => {
        put.on('error', (err) => resolve(err.message));
        put.on('response', (res) => resolve(`answered ${res.statusCode}`));
      });
      put.write(Buffer.alloc(size / 2, 7));
      const partSize = async () => {
        const parts = (await readdir(tmpDir()).catch(() => [])).filter((n) => n.endsWith('.part'));
        return parts.length === 1 ? (await stat(path.join(tmpDir(), parts[0] ?? ''))).size : 0;
      };
      await until('the part file to fill', async () => (await partSize()) >= 1024 * 1024);
      await restart('upload in flight');
      expect(await putDone).not.toMatch(/^answered/);

      // The dead process left its part; nothing names it, and the gift has no message.
      const parts = (await readdir(tmpDir())).filter((n) => n.endsWith('.part'));
      expect(parts).toHaveLength(1);
      expect(await gift(giftId)).toMatchObject({ status: 'draft', message_path: null });
      expect(await orphans()).toEqual({ files: [], rows: [] });

      // Seven hours on (its mtime), housekeeping (made due now, as an hour passing would) removes it.
      const old = new Date(Date.now() - 7 * 3600_000);
      await utimes(path.join(tmpDir(), parts[0] ?? ''), old, old);
      await db
        .updateTable('jobs')
        .set({ run_at: new Date(Date.now() - 1000).toISOString() })
        .where('key', '=', 'housekeeping')
        .execute();
      const removedMs = await until('housekeeping to remove the stale part', async () =>
        (await readdir(tmpDir())).every((n) => !n.endsWith('.part')),
      );
      figures.push(`stale .part removed by housekeeping ${removedMs} ms after it became due`);

      // The sender retries on the same link: the whole file, confirmed once.
      const data = tinyMp4();
      expect(await putWhole(target1.uploadUrl, data)).toBe(200);
      await sender.ok('POST', API.confirmUpload, {
        giftId,
        publicUrl: target1.publicUrl,
        messageType: 'video',
        filePath: target1.filePath,
      });
      expect(await gift(giftId)).toMatchObject({
        status: 'message_uploaded',
        // Stored under the upload's name with the extension of what the bytes are.
        message_path: target1.filePath.replace(/\.upload$/, '.mp4'),
      });
      expect(await orphans()).toEqual({ files: [], rows: [] });
    });

    it('killed while a rendition is being stored: redone by the retry; housekeeping removes what the killed attempt left', async () => {
      // Only this test's render may stop at the gate: the renders earlier tests started finish first.
      await until(
        'the earlier renders to finish',
        async () =>
          (await db
            .selectFrom('jobs')
            .select('id')
            .where('kind', '=', 'message.render')
            .where('status', 'in', ['queued', 'running'])
            .execute()).length === 0,
        120_000,
      );
      await writeFile(path.join(renderGate(), 'armed'), '');
      const giftId = await newGift();
      const data = tinyMp4();
      const upload = await uploadUrl(giftId, data.length);
      expect(await putWhole(upload.uploadUrl, data)).toBe(200);
      const renderJob = () =>
        db.selectFrom('jobs').selectAll().where('key', 'like', `media:${giftId}:%`).executeTakeFirstOrThrow();
      const giftFiles = async () =>
        (await filesUnder(path.join(mediaDir(), 'gifts', giftId))).map((f) => `gifts/${giftId}/${f}`).sort();
      await sender.ok('POST', API.confirmUpload, {
        giftId,
        publicUrl: upload.publicUrl,
        messageType: 'video',
        filePath: upload.filePath,
      });
      const job = await renderJob();
      const killed = [`rendition-${job.id}-1.jpg`, `rendition-${job.id}-1.mp4`].map((n) => `gifts/${giftId}/${n}`);
      // The render stops at its gate (its last check of the rendition, just before it stores it); the test then
      // holds what the swap to the rendition needs and opens the gate: the render stores its files and waits, and
      // the kill lands between the stored rendition and the row naming it.
      // Claimed (on SQLite a claim under the test's lock would wait it out) and at the gate.
      await until(
        'the render to reach its gate',
        async () => existsSync(path.join(renderGate(), 'waiting')) && (await renderJob()).status === 'running',
        120_000,
      );
      await whileLocked(giftId, async () => {
        await writeFile(path.join(renderGate(), 'open'), '');
        // SQLite: every write the server tries meanwhile (a job poll) waits out the 5 s busy timeout, which holds up
        // its event loop: the render gets there, slowly.
        await until(
          'the rendition and its poster to be stored',
          async () => (await giftFiles()).filter((f) => killed.includes(f)).length === killed.length,
          120_000,
        );
        await kill();
        // PostgreSQL runs a statement whose client died on until it next talks to it: the dead server's swap, waiting
        // on our lock, would still commit once the lock goes. Its connections end with it.
        if (target.name === 'postgres') {
          await sql`
            select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = ${SERVER_APP_NAME}`.execute(db);
        }
      });
      await rm(path.join(renderGate(), 'armed'));
      await restarted('render storing its rendition');
      expect(await gift(giftId)).toMatchObject({ message_state: 'processing', message_path: upload.filePath.replace(/\.upload$/, '.mp4') });
      expect((await orphans()).files.sort()).toEqual(killed);

      // Its 2-minute lease runs out (moved to the past instead of waiting): the restarted server renders again.
      await db
        .updateTable('jobs')
        .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', job.id)
        .execute();
      const redoneMs = await until(
        'the message to be rendered again',
        async () => (await gift(giftId)).message_state === 'ready' && (await renderJob()).status === 'done',
        // A claim, four ffmpeg runs and two stores: over 30 s seen at a load average of 22.
        120_000,
      );
      const redone = await gift(giftId);
      expect(redone).toMatchObject({
        message_path: `gifts/${giftId}/rendition-${job.id}-2.mp4`,
        message_poster_path: `gifts/${giftId}/rendition-${job.id}-2.jpg`,
      });
      expect(await renderJob()).toMatchObject({ status: 'done', attempts: 2 });
      const listed = await sender.ok<{ gifts: { id: string; messageUrl: string | null }[] }>('GET', API.myGifts);
      const messageUrl = listed.gifts.find((g) => g.id === giftId)?.messageUrl;
      expect(messageUrl).toMatch(/\.mp4\?exp=/);
      const media = await fetch(new URL(messageUrl ?? '', server.origin));
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await media.arrayBuffer()).length).toBe(redone.message_size);
      // What the killed attempt stored is named by no row, and is left to housekeeping.
      expect((await orphans()).files.sort()).toEqual(killed);

      // Seven hours on (the job's end), housekeeping (made due now) removes it; the rendition in use stays.
      await db
        .updateTable('jobs')
        .set({ finished_at: new Date(Date.now() - 7 * 3600_000).toISOString() })
        .where('id', '=', job.id)
        .execute();
      await db
        .updateTable('jobs')
        .set({ run_at: new Date(Date.now() - 1000).toISOString() })
        .where('key', '=', 'housekeeping')
        .execute();
      const sweptMs = await until(
        'housekeeping to remove the killed attempt’s files',
        async () => (await giftFiles()).every((f) => !killed.includes(f)),
        120_000,
      );
      expect(await orphans()).toEqual({ files: [], rows: [] });
      expect(await giftFiles()).toEqual(
        expect.arrayContaining([redone.message_path, redone.message_poster_path]),
      );
      figures.push(
        `render: killed with its rendition stored; redone ${redoneMs} ms after its lease ran out, the leftovers removed by housekeeping ${sweptMs} ms after it became due`,
      );
    });

    it('killed during a payment verification: not applied; the retry applies it once', async () => {
      const giftId = await newGift();
      await messageUploaded(giftId);
      const { orderId } = await sender.ok<{ orderId: string }>('POST', API.createOrder, { giftId });
      const paid = await sender.ok<{
        razorpay_order_id: string;
        razorpay_payment_id: string;
        razorpay_signature: string;
      }>('POST', API.testPay, { orderId });
      const verify = { orderId, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature };
      await whileLocked(giftId, async () => {
        const inFlight = fetch(`${server.origin}${API.verifyPayment}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(verify),
        }).then(
          (r) => `answered ${r.status}`,
          (err: Error) => err.message,
        );
        await until('the server to wait inside its payment transaction', serverWaitsOnLock);
        await kill();
        expect(await inFlight).not.toMatch(/^answered/);
      });
      // Started once the lock is gone (SQLite: the new process migrates, which needs the write lock).
      await restarted('payment verification in its transaction');
      // Not at all: the order unpaid, the gift not active.
      expect((await ordersOf(giftId)).map((o) => o.status)).toEqual(['created']);
      expect((await gift(giftId)).status).toBe('message_uploaded');

      // The payment page tries again: applied once; a third call changes nothing.
      await sender.ok('POST', API.verifyPayment, verify);
      const [order] = await ordersOf(giftId);
      expect(order).toMatchObject({ status: 'paid', payment_id: verify.paymentId });
      expect((await gift(giftId)).status).toBe('active');
      await sender.ok('POST', API.verifyPayment, verify);
      expect(await ordersOf(giftId)).toEqual([order]);
      figures.push(
        `payment verification: not applied after the kill; applied once by the retry, unchanged by another`,
      );
    });

    it('killed during a payment webhook: not applied; the provider’s redelivery applies it once', async () => {
      const giftId = await newGift();
      await messageUploaded(giftId);
      const { orderId } = await sender.ok<{ orderId: string }>('POST', API.createOrder, { giftId });
      const webhook = signedWebhook(orderId, `pay_fault${Date.now().toString(36)}`);
      const eventId = `evt_fault_${target.name}_${Date.now().toString(36)}`;
      await whileLocked(giftId, async () => {
        const inFlight = postWebhook(webhook, eventId).then(
          (r) => `answered ${r.status}`,
          (err: Error) => err.message,
        );
        await until('the server to wait inside its webhook transaction', serverWaitsOnLock);
        await kill();
        expect(await inFlight).not.toMatch(/^answered/);
      });
      // Started once the lock is gone (SQLite: the new process migrates, which needs the write lock).
      await restarted('payment webhook in its transaction');
      const events = () => db.selectFrom('webhook_events').selectAll().where('id', '=', eventId).execute();
      expect(await events()).toEqual([]);
      expect((await ordersOf(giftId)).map((o) => o.status)).toEqual(['created']);
      expect((await gift(giftId)).status).toBe('message_uploaded');

      const first = await postWebhook(webhook, eventId);
      expect(await first.json()).toEqual({ success: true, duplicate: false });
      const again = await postWebhook(webhook, eventId);
      expect(await again.json()).toEqual({ success: true, duplicate: true });
      expect(await events()).toHaveLength(1);
      expect((await ordersOf(giftId)).map((o) => o.status)).toEqual(['paid']);
      expect((await gift(giftId)).status).toBe('active');
      figures.push(
        `payment webhook: not applied after the kill; the redelivery applied once, a duplicate ignored`,
      );
    });

    it('killed while a delivery is being sent: sent exactly once after the restart; a scheduled one is kept', async () => {
      const giftId = await newGift();
      await messageUploaded(giftId);
      const { orderId } = await sender.ok<{ orderId: string }>('POST', API.createOrder, { giftId });
      const paid = await sender.ok<{ razorpay_payment_id: string; razorpay_signature: string }>(
        'POST',
        API.testPay,
        { orderId },
      );
      await sender.ok('POST', API.verifyPayment, {
        orderId,
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
      });
      const later = new Date(Date.now() + 86_400_000).toISOString();
      const scheduled = await sender.ok<{ id: string }>('POST', API.scheduledMessages, {
        giftId,
        recipientContact: 'later@example.com',
        contactType: 'email',
        scheduledDatetime: later,
        timezone: 'UTC',
      });
      const to = `now-${target.name}-${Date.now().toString(36)}@example.com`;
      smtp.mode = 'hang';
      const handedOver = smtp.dataStarted;
      const { delivery } = await sender.ok<{ delivery: { id: string } }>('POST', API.sendNow, {
        giftId,
        recipientContact: to,
        contactType: 'email',
      });
      const row = (id: string) =>
        db.selectFrom('scheduled_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const job = (id: string) =>
        db.selectFrom('jobs').selectAll().where('key', '=', `delivery:${id}`).executeTakeFirstOrThrow();
      // The whole mail handed to the SMTP server, which has not said yes: the send is in flight.
      await until('the mail to be handed over', () => smtp.dataStarted > handedOver);
      expect((await row(delivery.id)).status).toBe('sending');
      await restart('delivery send in flight');
      smtp.mode = 'accept';
      const mailsTo = () => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === to);
      expect(mailsTo()).toEqual([]);

      // Its 2-minute lease runs out (moved to the past instead of waiting): the restarted server sends it.
      await db
        .updateTable('jobs')
        .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
        .where('key', '=', `delivery:${delivery.id}`)
        .execute();
      const sentMs = await until(
        'the delivery to be sent',
        async () => (await row(delivery.id)).status === 'sent',
      );
      // Its job finished: nothing is left that could send again (the SMTP server records a mail before accepting it).
      await until('the delivery job to finish', async () => (await job(delivery.id)).status === 'done');
      expect(mailsTo()).toHaveLength(1);
      expect(await job(delivery.id)).toMatchObject({ status: 'done', attempts: 2 });
      // The one scheduled for tomorrow is untouched by the kill.
      expect(await row(scheduled.id)).toMatchObject({ status: 'pending' });
      expect(await job(scheduled.id)).toMatchObject({ status: 'queued' });
      figures.push(
        `delivery: sent once, ${sentMs} ms after its lease ran out; the scheduled one still pending`,
      );
      expect(await orphans()).toEqual({ files: [], rows: [] });
    });
  });
}
