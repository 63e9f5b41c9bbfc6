/**
 * npm run bench:growth [-- --scale F] [--runs N] [--keep]
 *
 * Whether costs stay flat as the data grows (issue 26). Two PostgreSQL databases on the server at TEST_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/test), made by this process (`giftlens_growth_big_<pid>`,
 * `giftlens_growth_small_<pid>`) and given the real schema by the server's migrator, are seeded with set-based SQL
 * (generate_series): big has 1,000,000 gifts, 200,000 senders, about 2,000,000 job rows (10,000 of them due),
 * 1,000,000 sessions and 1,000,000 verification codes, with photos, orders, scheduled messages, reveal grants,
 * reactions, push subscriptions, webhook events and upload intents beside them; small has the same at 1/1000.
 * `--scale F` multiplies big's volumes (small follows at F/1000 unless `--small F2`; e.g. `--scale 0.01 --small 0.001`
 * for a quick look).
 *
 * Then, on both, in the same process and interleaved (small, big, small, big ...), each measure calls the server's
 * own services and repositories (no copies of their queries), warms up, and prints the median of several runs:
 *
 *   growth <name> small=<ms> big=<ms> ratio=<big/small>
 *
 * verify-gift, check-email, verify-otp (the code check and the session), my-gifts (a sender with 50 gifts),
 * scheduled-messages, scan (the database part of a matching scan: plan checks, failed-scan limits, references,
 * the counted reveal, first-open notice and grant; the matcher is a stand-in that says "match"), job-claim (4 jobs,
 * the main lane), housekeeping (one run; before each run both databases get the same fresh inflow of rows it must
 * delete, and every one of them is checked gone afterwards: `left=` after the line), delete-gift, delete-account
 * (50 gifts), sign-out-everywhere. Goal: every ratio at most 2, housekeeping under 500 ms on big with nothing left.
 * Before the measures, housekeeping works off what the seed leaves due at once (the backlog a first run after the
 * migration meets) and prints it: `growth housekeeping-backlog <db>: N runs … longest run … ms`.
 *
 * The databases are dropped at the end, also on failure or Ctrl-C (`--keep` leaves them, for EXPLAIN).
 * Not part of CI: seeding big takes minutes on a 2-core machine.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { CODE_LIMITS } from '@giftlens/contract/constants';
import { memoryWindow } from '../src/adapters/sliding-window.ts';
import { systemClock } from '../src/adapters/clock.ts';
import type { Mailer, MailMessage } from '../src/adapters/mail.ts';
import { createLocalMediaStorage } from '../src/adapters/media-storage.ts';
import type { Recogniser } from '../src/adapters/recogniser.ts';
import { createDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrator.ts';
import type { JobPayloads } from '../src/jobs/kinds.ts';
import { claimJobs } from '../src/jobs/runner.ts';
import { codeMailJob } from '../src/modules/auth/auth.jobs.ts';
import { createBackupCodes } from '../src/lib/backup-codes.ts';
import { createDeliveriesService } from '../src/modules/deliveries/deliveries.service.ts';
import { createHousekeepingService, type HousekeepingReport } from '../src/modules/housekeeping/housekeeping.service.ts';
import { createMessagesService } from '../src/modules/messages/messages.service.ts';
import { createMyGiftsService } from '../src/modules/my-gifts/my-gifts.service.ts';
import { createRecipientAuthService } from '../src/modules/recipient-auth/recipient-auth.service.ts';
import { RENDER_JOB_KINDS } from '../src/modules/renditions/renditions.jobs.ts';
import { createRevealGrants } from '../src/modules/reveal-grants/reveal-grants.ts';
import { createScansService } from '../src/modules/scans/scans.service.ts';
import { createSenderAuthService } from '../src/modules/sender-auth/sender-auth.service.ts';
import { findSenderById } from '../src/modules/sender-auth/sender-auth.repository.ts';
import { adminQuery, PG_URL, postgresProblem, postgresUrlOf } from '../test/helpers/postgres.ts';
import { revealedContributions } from '../src/modules/group-gifts/group-gifts.service.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const SCALE = option('--scale', 1);
const RUNS = option('--runs', 11);
/** Small's volumes against big's full ones (a quick smoke run may set it apart from --scale). */
const SMALL = option('--small', SCALE / 1000);
const KEEP = args.includes('--keep');
const SESSION_SECRET = 'bench-growth-session-secret-0123456789abcdef';
/** Senders with 50 gifts each (my-gifts, delete-account). */
const HEAVY = 12;
const GIFTS_PER_HEAVY = 50;

const DAY = 24 * 60 * 60 * 1000;
/** The schema the seed writes: migrations after it run on the seeded data (their backfills included). */
const SEEDED_SCHEMA = '20261126070000_backup_code';

interface Volumes {
  senders: number;
  gifts: number;
  sessions: number;
  codes: number;
  /** One delivery per 5 gifts at most; every 20th is due now. */
  deliveries: number;
  grants: number;
  webhooks: number;
  reactions: number;
  subscriptions: number;
  intents: number;
  failures: number;
  resends: number;
  recipients: number;
}

function volumes(factor: number): Volumes {
  const n = (x: number) => Math.max(1, Math.round(x * factor));
  return {
    senders: n(200_000),
    gifts: n(1_000_000),
    sessions: n(1_000_000),
    codes: n(1_000_000),
    deliveries: n(200_000),
    grants: n(20_000),
    webhooks: n(100_000),
    reactions: n(50_000),
    subscriptions: n(50_000),
    intents: n(10_000),
    failures: n(10_000),
    resends: n(1_000),
    recipients: n(100_000),
  };
}

// ---------- databases ----------

const admin = adminQuery;
const urlOf = postgresUrlOf;

const created: string[] = [];
async function dropAll() {
  if (KEEP) {
    if (created.length) console.log(`kept: ${created.join(', ')}`);
    return;
  }
  for (const name of created.splice(0)) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err: unknown) => console.error(`could not drop ${name}:`, err));
}

// ---------- seeding ----------

const timed = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const out = await fn();
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
};

/**
 * The seed, in SQL over generate_series. Gift i: sender i/50 for the first HEAVY*50 gifts, else one of the others;
 * i%20 = 0 a draft and 1 a message uploaded (unpaid, under a week old), else paid on plan basic/premium/lifetime (i%3)
 * some time in the last year; a Basic or Premium gift whose plan ended more than a week ago was emptied by
 * housekeeping already (no message, no photo), as in steady state. Opened when i%4 = 0.
 */
async function seed(client: pg.Client, v: Volumes, now: Date) {
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  await q(`SET synchronous_commit = off`);
  await q(`SET maintenance_work_mem = '256MB'`);
  await q(`CREATE FUNCTION pg_temp.iso(t timestamptz) RETURNS text IMMUTABLE LANGUAGE sql AS $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$`);
  // Speed only, the schema stays the migrator's: the rows are consistent by construction, so the foreign-key triggers
  // are off for this session, and the plain indexes (not the keys and unique constraints) are dropped here and made
  // again from their own definitions after the rows are in (one sort each instead of a million random inserts).
  await q(`SET session_replication_role = replica`);
  const { rows: plainIndexes } = await q(
    `SELECT indexname, indexdef FROM pg_indexes i WHERE schemaname = 'public'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const ix of plainIndexes as { indexname: string }[]) await q(`DROP INDEX ${ix.indexname}`);
  const nowP = [now.toISOString()];
  const S = v.senders;
  const ordinary = Math.max(1, S - HEAVY);

  await timed('senders', () =>
    q(
      `INSERT INTO senders (id, email, phone_number, first_name, created_at, updated_at)
       SELECT md5('s' || i), 's' || i || '@example.test', NULL, 'Sender ' || i,
              pg_temp.iso($1::timestamptz - (i % 700) * interval '1 day'), pg_temp.iso($1::timestamptz - (i % 700) * interval '1 day')
       FROM generate_series(0::bigint, ${S - 1}) i`,
      nowP,
    ),
  );
  await timed('recipients', () =>
    q(
      `INSERT INTO recipients (id, email, created_at)
       SELECT md5('rc' || i), 'r' || i || '@example.test', pg_temp.iso($1::timestamptz - (i % 300) * interval '1 day')
       FROM generate_series(0::bigint, ${v.recipients - 1}) i`,
      nowP,
    ),
  );

  const R = Math.max(1, Math.floor(v.gifts / 2));
  await timed('gift plan (temp)', async () => {
    await q(
      `CREATE TEMP TABLE seed_gifts AS
       SELECT i, md5('g' || i) AS id,
              md5('s' || CASE WHEN i < ${HEAVY * GIFTS_PER_HEAVY} THEN i / ${GIFTS_PER_HEAVY} ELSE ${HEAVY} + (i % ${ordinary}) END) AS sender_id,
              CASE i % 20 WHEN 0 THEN 'draft' WHEN 1 THEN 'message_uploaded' ELSE 'active' END AS status,
              (ARRAY['basic_in', 'premium_in', 'lifetime_in'])[i % 3 + 1] AS plan_id,
              CASE WHEN i % 20 < 2 THEN NULL ELSE $1::timestamptz - ((i * 7919) % (365 * 86400)) * interval '1 second' END AS paid,
              $1::timestamptz - ((i * 104729) % (6 * 86400)) * interval '1 second' AS fresh
       FROM generate_series(0::bigint, ${v.gifts - 1}) i`,
      nowP,
    );
    await q(`ALTER TABLE seed_gifts ADD COLUMN has_content boolean`);
    await q(
      `UPDATE seed_gifts SET has_content = NOT (paid IS NOT NULL AND (
         (plan_id = 'basic_in' AND paid < $1::timestamptz - interval '8 days') OR
         (plan_id = 'premium_in' AND paid < $1::timestamptz - interval '37 days')))`,
      nowP,
    );
    await q(`ALTER TABLE seed_gifts ADD PRIMARY KEY (i)`);
    await q(`ANALYZE seed_gifts`);
  });
  await timed('gifts', () =>
    q(
      `INSERT INTO gifts (id, sender_id, recipient_name, recipient_email, recipient_phone, occasion, plan_id, status,
                          message_type, message_path, message_mime, message_text, message_size, paid_at, scans_used,
                          created_at, updated_at, first_opened_at, message_state, message_poster_path, message_error, backup_code)
       SELECT id, sender_id, 'Recipient ' || i, 'r' || (i % ${R}) || '@example.test', NULL, 'birthday', plan_id, status,
              'video',
              CASE WHEN has_content AND status <> 'draft' THEN 'gifts/' || id || '/message.mp4' END,
              CASE WHEN has_content AND status <> 'draft' THEN 'video/mp4' END,
              NULL,
              CASE WHEN has_content AND status <> 'draft' THEN 100000 END,
              pg_temp.iso(paid), 0,
              pg_temp.iso(COALESCE(paid - interval '1 hour', fresh - interval '1 hour')),
              pg_temp.iso(COALESCE(paid, fresh)),
              CASE WHEN paid IS NOT NULL AND i % 4 = 0 THEN pg_temp.iso(paid + interval '2 hours') END,
              CASE WHEN has_content AND status <> 'draft' THEN 'ready' ELSE 'none' END,
              CASE WHEN has_content AND status <> 'draft' THEN 'gifts/' || id || '/poster.jpg' END,
              NULL, NULL
       FROM seed_gifts`,
    ),
  );
  await timed('gift_photos', () =>
    q(
      `INSERT INTO gift_photos (id, gift_id, storage_path, mime, features, quality, position, created_at, recognisable,
                                quality_message, rating, quality_reasons)
       SELECT md5('p' || i), id, 'gifts/' || id || '/photo-1.jpg', 'image/jpeg', decode(repeat('ab', 64), 'hex'), 0.8, 0,
              pg_temp.iso(COALESCE(paid - interval '1 hour', fresh - interval '1 hour')), 1, NULL, 4, ''
       FROM seed_gifts WHERE has_content`,
    ),
  );
  await timed('orders', () =>
    q(
      `INSERT INTO orders (id, gift_id, provider, provider_order_id, amount_minor, currency, status, payment_id, paid_at, created_at, updated_at)
       SELECT md5('o' || i), id, 'test', 'order_' || i, 9900, 'INR',
              CASE WHEN paid IS NULL THEN 'created' ELSE 'paid' END,
              CASE WHEN paid IS NULL THEN NULL ELSE 'pay_' || i END,
              pg_temp.iso(paid), pg_temp.iso(COALESCE(paid, fresh) - interval '10 minutes'), pg_temp.iso(COALESCE(paid, fresh))
       FROM seed_gifts WHERE paid IS NOT NULL OR status = 'message_uploaded'`,
    ),
  );
  // Delivery k belongs to gift 5k+2 (always a paid one); every 20th is pending and due now, the rest were sent.
  const D = Math.min(v.deliveries, Math.floor((v.gifts - 3) / 5) + 1);
  await timed('scheduled_messages', () =>
    q(
      `INSERT INTO scheduled_messages (id, gift_id, sender_id, contact_type, recipient_contact, scheduled_at, timezone, status,
                                       attempts, last_error, sent_at, created_at, updated_at)
       SELECT md5('d' || k), g.id, g.sender_id, 'email', 'r' || k || '@example.test',
              pg_temp.iso(CASE WHEN k % 20 = 0 THEN $1::timestamptz - (k % 600) * interval '1 second' ELSE g.paid + interval '1 day' END),
              'UTC', CASE WHEN k % 20 = 0 THEN 'pending' ELSE 'sent' END, CASE WHEN k % 20 = 0 THEN 0 ELSE 1 END, NULL,
              CASE WHEN k % 20 = 0 THEN NULL ELSE pg_temp.iso(g.paid + interval '1 day') END,
              pg_temp.iso(g.paid), pg_temp.iso(g.paid)
       FROM generate_series(0::bigint, ${D - 1}) k JOIN seed_gifts g ON g.i = 5 * k + 2`,
      nowP,
    ),
  );
  // Jobs as the code writes them (kind, JSON payload, key); finished ones within the last 7 days (older ones were
  // deleted by housekeeping), so nothing but the per-run inflow is due for deletion.
  const finished = (expr: string) => `pg_temp.iso($1::timestamptz - ((${expr}) % (7 * 86400 - 7200) + 3600) * interval '1 second')`;
  const job = (select: string, label: string) =>
    timed(`jobs: ${label}`, () =>
      q(
        `INSERT INTO jobs (id, kind, payload, key, status, run_at, attempts, max_attempts, lock_token, locked_until, last_error,
                           created_at, updated_at, finished_at) ${select}`,
        nowP,
      ),
    );
  await job(
    `SELECT md5('jd' || k), 'delivery.send', '{"deliveryId":"' || md5('d' || k) || '"}', 'delivery:' || md5('d' || k),
            CASE WHEN k % 20 = 0 THEN 'queued' ELSE 'done' END,
            CASE WHEN k % 20 = 0 THEN pg_temp.iso($1::timestamptz - (k % 600) * interval '1 second') ELSE ${finished('k * 13')} END,
            CASE WHEN k % 20 = 0 THEN 0 ELSE 1 END, 6, NULL, NULL, NULL,
            ${finished('k * 13')}, ${finished('k * 13')}, CASE WHEN k % 20 = 0 THEN NULL ELSE ${finished('k * 13')} END
     FROM generate_series(0::bigint, ${D - 1}) k`,
    'deliveries',
  );
  await job(
    `SELECT md5('jp' || i), 'payment.confirmation', '{"giftId":"' || id || '"}', 'payment-confirmation:' || id, 'done',
            ${finished('i * 31')}, 1, 6, NULL, NULL, NULL, ${finished('i * 31')}, ${finished('i * 31')}, ${finished('i * 31')}
     FROM seed_gifts WHERE paid IS NOT NULL`,
    'payment confirmations',
  );
  await job(
    `SELECT md5('jn' || i || m), CASE m WHEN 0 THEN 'notice.fanout' ELSE 'notice.mail' END,
            '{"event":"opened","giftId":"' || id || '"}', 'notice:opened:' || id || CASE m WHEN 0 THEN '' ELSE ':mail' END, 'done',
            ${finished('i * 17 + m')}, 1, 8, NULL, NULL, NULL, ${finished('i * 17 + m')}, ${finished('i * 17 + m')}, ${finished('i * 17 + m')}
     FROM seed_gifts CROSS JOIN generate_series(0::bigint, 1) m WHERE paid IS NOT NULL AND i % 4 = 0`,
    'notices',
  );
  await job(
    `SELECT md5('jr' || i), 'message.render', '{"giftId":"' || id || '","key":"gifts/' || id || '/upload.webm"}',
            'media:' || id || ':gifts/' || id || '/upload.webm', CASE WHEN i % 7 = 0 THEN 'dead' ELSE 'done' END,
            ${finished('i * 11')}, CASE WHEN i % 3 = 0 THEN 2 ELSE 1 END, 3, NULL, NULL, NULL,
            ${finished('i * 11')}, ${finished('i * 11')}, ${finished('i * 11')}
     FROM seed_gifts WHERE i % 50 = 3`,
    'renders',
  );
  await timed('sessions', () =>
    q(
      `INSERT INTO sessions (token_hash, kind, subject, created_at, expires_at)
       SELECT md5('t' || k) || md5('u' || k), 'sender', md5('s' || (k % ${S})),
              pg_temp.iso($1::timestamptz - ((k * 7) % (29 * 86400)) * interval '1 second'),
              pg_temp.iso($1::timestamptz - ((k * 7) % (29 * 86400)) * interval '1 second' + interval '30 days')
       FROM generate_series(0::bigint, ${v.sessions - 1}) k`,
      nowP,
    ),
  );
  // A day's codes: 10-minute expiry, none yet a day past it.
  await timed('verification_codes', () =>
    q(
      `INSERT INTO verification_codes (id, purpose, destination, code_hash, expires_at, attempts, consumed_at, created_at)
       SELECT md5('c' || k), CASE WHEN k % 2 = 0 THEN 'sender' ELSE 'recipient' END,
              CASE WHEN k % 2 = 0 THEN 's' || (k % ${S}) ELSE 'r' || (k % ${R}) END || '@example.test',
              md5('h' || k), pg_temp.iso(c + interval '10 minutes'), 1, pg_temp.iso(c + interval '1 minute'), pg_temp.iso(c)
       FROM (SELECT k, $1::timestamptz - ((k * 13) % (23 * 3600)) * interval '1 second' - interval '1 minute' AS c
             FROM generate_series(0::bigint, ${v.codes - 1}) k) x`,
      nowP,
    ),
  );
  await timed('the rest', async () => {
    await q(
      `INSERT INTO code_resends (purpose, destination, sent_at)
       SELECT 'sender', 'cr' || k || '@example.test', pg_temp.iso($1::timestamptz - (k % 50) * interval '1 second')
       FROM generate_series(0::bigint, ${v.resends - 1}) k`,
      nowP,
    );
    // Up to an hour of grants (the last 5 minutes' still live).
    await q(
      `INSERT INTO reveal_grants (token_hash, gift_id, created_at, expires_at)
       SELECT md5('rg' || k) || md5('rh' || k), g.id, pg_temp.iso(e - interval '5 minutes'), pg_temp.iso(e)
       FROM (SELECT k, $1::timestamptz - (k % 3600) * interval '1 second' + interval '5 minutes' AS e FROM generate_series(0::bigint, ${v.grants - 1}) k) x
       JOIN seed_gifts g ON g.i = (x.k * 20 + 2) % ${v.gifts} AND g.paid IS NOT NULL`,
      nowP,
    );
    await q(
      `INSERT INTO scan_failures (id, scope, created_at)
       SELECT md5('sf' || k), 'ip:10.0.' || (k % 250) || '.' || (k % 200), pg_temp.iso($1::timestamptz - (k % 500) * interval '1 second')
       FROM generate_series(0::bigint, ${v.failures - 1}) k`,
      nowP,
    );
    await q(
      `INSERT INTO webhook_events (id, provider, event_type, received_at)
       SELECT 'evt_' || k, 'stripe', 'checkout.session.completed', pg_temp.iso($1::timestamptz - ((k * 7) % (29 * 86400)) * interval '1 second')
       FROM generate_series(0::bigint, ${v.webhooks - 1}) k`,
      nowP,
    );
    await q(
      `INSERT INTO reactions (id, gift_id, status, consent_granted, consented_at, device_info, browser_info, playback_session_id,
                              media_duration, media_start_time, media_end_time, duration_seconds, sync_offset_ms, recording_quality,
                              file_path, file_mime, file_size, uploaded_at, created_at, updated_at, file_state, poster_path)
       SELECT md5('re' || g.i), g.id, 'uploaded', 1, pg_temp.iso(g.paid + interval '3 hours'), NULL, NULL, NULL, 10, NULL, NULL, 10, 0, 'good',
              'reactions/' || g.id || '/reaction.mp4', 'video/mp4', 10000, pg_temp.iso(g.paid + interval '3 hours'),
              pg_temp.iso(g.paid + interval '3 hours'), pg_temp.iso(g.paid + interval '3 hours'), 'ready', 'reactions/' || g.id || '/poster.jpg'
       FROM generate_series(0::bigint, ${v.reactions - 1}) k JOIN seed_gifts g ON g.i = k * 20 + 4 AND g.paid IS NOT NULL`,
    );
    await q(
      `INSERT INTO push_subscriptions (id, sender_id, endpoint, p256dh, auth, created_at, updated_at)
       SELECT md5('ps' || k), md5('s' || (k % ${S})), 'https://push.example.test/' || k, 'p256dh', 'auth',
              pg_temp.iso($1::timestamptz - (k % 300) * interval '1 day'), pg_temp.iso($1::timestamptz - (k % 300) * interval '1 day')
       FROM generate_series(0::bigint, ${v.subscriptions - 1}) k`,
      nowP,
    );
    // Open upload targets of this week's unpaid gifts.
    await q(
      `INSERT INTO upload_intents (id, gift_id, message_type, file_path, declared_type, max_bytes, status, size, expires_at, created_at)
       SELECT md5('ui' || k), g.id, 'video', 'uploads/' || md5('ui' || k) || '.webm', 'video/webm', 100000000, 'pending', NULL,
              pg_temp.iso(g.fresh + interval '1 hour'), pg_temp.iso(g.fresh)
       FROM generate_series(0::bigint, ${v.intents - 1}) k JOIN seed_gifts g ON g.i = (k * 20 + 1) % ${v.gifts} AND g.status = 'message_uploaded'`,
    );
  });
  await q(`DROP TABLE seed_gifts`);
  await timed(`indexes (${plainIndexes.length})`, async () => {
    for (const ix of plainIndexes as { indexdef: string }[]) await q(ix.indexdef);
  });
  await q(`RESET session_replication_role`);
}

// ---------- per-run housekeeping inflow (the same on both databases) ----------

/**
 * What housekeeping must delete, fresh before each run: the same rows on small and big (500 codes, 200 sessions, 500
 * jobs, 50 each of resend slots, grants, scan failures and webhook events, 5 stale drafts, 5 ended gifts, 15 upload
 * targets), so the two runs do the same work and only the tables around it differ. Returns a count of what is left.
 */
async function housekeepingInflow(db: Db, run: number, now: Date) {
  const iso = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const tag = `hk${run}x${now.getTime()}`;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  // two days past expiry (kept one)
  await db
    .insertInto('verification_codes')
    .values(
      range(500).map((i) => ({
        id: `${tag}c${i}`,
        purpose: 'recipient' as const,
        destination: `${tag}-${i}@example.test`,
        code_hash: 'x',
        expires_at: iso(2 * DAY),
        attempts: 0,
        consumed_at: null,
        created_at: iso(2 * DAY + 600_000),
      })),
    )
    .execute();
  await db
    .insertInto('sessions')
    .values(range(200).map((i) => ({ token_hash: `${tag}t${i}`, kind: 'recipient' as const, subject: `${tag}-${i}@example.test`, created_at: iso(DAY + 60_000), expires_at: iso(60_000) })))
    .execute();
  await db.insertInto('code_resends').values(range(50).map((i) => ({ purpose: 'sender' as const, destination: `${tag}-${i}`, sent_at: iso(120_000) }))).execute();
  const liveGift = await db.selectFrom('gifts').select('id').where('id', '=', md5Gift(2)).executeTakeFirstOrThrow();
  await db.insertInto('reveal_grants').values(range(50).map((i) => ({ token_hash: `${tag}g${i}`, gift_id: liveGift.id, created_at: iso(600_000), expires_at: iso(300_000) }))).execute();
  await db.insertInto('scan_failures').values(range(50).map((i) => ({ id: `${tag}f${i}`, scope: `ip:${tag}`, created_at: iso(20 * 60_000) }))).execute();
  await db.insertInto('webhook_events').values(range(50).map((i) => ({ id: `${tag}w${i}`, provider: 'stripe', event_type: 'x', received_at: iso(31 * DAY) }))).execute();
  await db
    .insertInto('jobs')
    .values(
      range(500).map((i) => ({
        id: `${tag}j${i}`,
        kind: 'notice.mail',
        payload: '{}',
        key: `${tag}j${i}`,
        status: 'done' as const,
        run_at: iso(8 * DAY),
        attempts: 1,
        max_attempts: 6,
        lock_token: null,
        locked_until: null,
        last_error: null,
        created_at: iso(8 * DAY),
        updated_at: iso(8 * DAY),
        finished_at: iso(8 * DAY),
      })),
    )
    .execute();
  // 5 drafts untouched for 8 days (a photo, an open order, an upload target each) and 5 Premium gifts whose plan
  // ended 3 days ago (message and photo), and 10 upload targets of a live gift expired 2 days ago.
  const sender = md5Sender(HEAVY + 1);
  const stale = range(5).map((i) => `${tag}sg${i}`);
  const ended = range(5).map((i) => `${tag}eg${i}`);
  const base = {
    sender_id: sender,
    recipient_name: 'R',
    recipient_email: `${tag}@example.test`,
    recipient_phone: null,
    occasion: 'birthday',
    message_type: 'video' as const,
    message_mime: 'video/mp4',
    message_text: null,
    message_size: 1,
    scans_used: 0,
    first_opened_at: null,
    message_poster_path: null,
    message_error: null,
    backup_code: null,
  };
  await db
    .insertInto('gifts')
    .values([
      ...stale.map((id) => ({ ...base, id, plan_id: 'premium_in' as const, status: 'message_uploaded' as const, message_path: `gifts/${id}/m.mp4`, paid_at: null, created_at: iso(9 * DAY), updated_at: iso(8 * DAY), message_state: 'ready' as const })),
      ...ended.map((id) => ({ ...base, id, plan_id: 'premium_in' as const, status: 'active' as const, message_path: `gifts/${id}/m.mp4`, paid_at: iso(40 * DAY), created_at: iso(40 * DAY), updated_at: iso(40 * DAY), message_state: 'ready' as const })),
    ])
    .execute();
  await db
    .insertInto('gift_photos')
    .values([...stale, ...ended].map((id) => ({ id: `${id}p`, gift_id: id, storage_path: `gifts/${id}/p.jpg`, mime: 'image/jpeg', features: null, quality: 0.5, position: 0, created_at: iso(9 * DAY), recognisable: 1, quality_message: null, rating: 3, quality_reasons: '' })))
    .execute();
  await db
    .insertInto('orders')
    .values(stale.map((id) => ({ id: `${id}o`, gift_id: id, provider: 'test', provider_order_id: `${id}o`, amount_minor: 9900, currency: 'INR', status: 'created', payment_id: null, paid_at: null, created_at: iso(9 * DAY), updated_at: iso(9 * DAY) })))
    .execute();
  await db
    .insertInto('upload_intents')
    .values([
      ...stale.map((id) => ({ id: `${id}u`, gift_id: id, message_type: 'video' as const, file_path: `uploads/${id}u.webm`, declared_type: 'video/webm', max_bytes: 1, status: 'pending' as const, size: null, expires_at: iso(9 * DAY), created_at: iso(9 * DAY) })),
      ...range(10).map((i) => ({ id: `${tag}u${i}`, gift_id: liveGift.id, message_type: 'video' as const, file_path: `uploads/${tag}u${i}.webm`, declared_type: 'video/webm', max_bytes: 1, status: 'pending' as const, size: null, expires_at: iso(2 * DAY), created_at: iso(2 * DAY + 3_600_000) })),
    ])
    .execute();

  /** Rows of this inflow still there after the run. */
  return async (): Promise<number> => {
    const counts = await Promise.all([
      db.selectFrom('verification_codes').select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('sessions').select((eb) => eb.fn.countAll<string>().as('n')).where('token_hash', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('code_resends').select((eb) => eb.fn.countAll<string>().as('n')).where('destination', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('reveal_grants').select((eb) => eb.fn.countAll<string>().as('n')).where('token_hash', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('scan_failures').select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('webhook_events').select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('jobs').select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'like', `${tag}%`).executeTakeFirstOrThrow(),
      db.selectFrom('gifts').select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'in', stale).executeTakeFirstOrThrow(),
      db.selectFrom('gift_photos').select((eb) => eb.fn.countAll<string>().as('n')).where('gift_id', 'in', ended).executeTakeFirstOrThrow(),
      db.selectFrom('upload_intents').select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'like', `${tag}%`).executeTakeFirstOrThrow(),
    ]);
    return counts.reduce((sum, c) => sum + Number(c.n), 0);
  };
}

// The ids the seed made: md5 of 'g' || i, 's' || i.
const hex = (text: string) => createHash('md5').update(text).digest('hex');
const md5Gift = (i: number) => hex(`g${i}`);
const md5Sender = (i: number) => hex(`s${i}`);

// ---------- the measures ----------

interface Target {
  name: 'small' | 'big';
  db: Db;
  volumes: Volumes;
  services: ReturnType<typeof servicesFor>;
  /** Mails the services sent (verification codes). */
  outbox: MailMessage[];
}

function servicesFor(db: Db, mediaDir: string, outbox: MailMessage[]) {
  const clock = systemClock;
  const media = createLocalMediaStorage(mediaDir, SESSION_SECRET);
  const mailer: Mailer = {
    send: (m) => {
      outbox.push(m);
      return Promise.resolve();
    },
    check: () => Promise.resolve(),
    close: () => {},
  };
  const backupCodes = createBackupCodes(SESSION_SECRET);
  // The matcher's part of a scan is not the database's: a stand-in that says "match" at once.
  const recogniser = {
    match: () => Promise.resolve({ matched: true, bestIndex: 0, score: 0.9, inliers: 40, ms: 0 }),
    matchLive: () => Promise.resolve({ matched: true, bestIndex: 0, score: 0.9, inliers: 40, ms: 0 }),
    busy: () => false,
    queued: () => false,
  } as unknown as Recogniser;
  const messages = createMessagesService({ db, media, clock, group: (gift) => revealedContributions({ db, media, clock }, gift) });
  const grants = createRevealGrants({ db, clock, secureCookies: false });
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const codeDeps = { db, mailer, clock, sessionSecret: SESSION_SECRET, log: () => {}, codeWindow: memoryWindow('bench:'), codeLimits: { ...CODE_LIMITS, perClient: Infinity } };
  const codeMail = codeMailJob({ db, clock, mailer, sessionSecret: SESSION_SECRET, publicOrigin: 'http://bench.test' });
  return {
    /** Runs the code mail the last send-code queued (the job runner's part, done here by hand). */
    async mailLastCode() {
      const job = await db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', 'auth.code_mail').orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
      await codeMail.run(JSON.parse(job.payload) as JobPayloads['auth.code_mail'], { id: job.id, attempt: 1, signal: new AbortController().signal });
    },
    recipientAuth: createRecipientAuthService(codeDeps),
    senderAuth: createSenderAuthService(codeDeps),
    myGifts: createMyGiftsService({ db, media, clock, backupCodes }),
    deliveries: createDeliveriesService({ db, clock, whatsappEnabled: false }),
    scans: createScansService({ db, media, clock, recogniser, messages, grants, backupCodes }),
    housekeeping: createHousekeepingService({ db, media, clock, log: silent }),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Run {
  call: () => Promise<unknown>;
  after?: (result: unknown) => string | void | Promise<string | void>;
}

interface Measure {
  name: string;
  warmups: number;
  runs: number;
  /** Prepares run `i` (untimed) and returns the timed call and an optional untimed check after it. */
  prepare(t: Target, i: number): Run | Promise<Run>;
}

const codeOf = (m: MailMessage | undefined) => /\b(\d{6})\b/.exec(m?.text ?? '')?.[1] ?? '';

async function senderRow(db: Db, index: number) {
  const s = await findSenderById(db, md5Sender(index));
  if (!s) throw new Error(`sender ${index} missing`);
  return s;
}

/** Ordinary gift number `k` (not a heavy sender's) that the deletion and scan measures use: paid, Lifetime, not opened. */
const ordinaryLifetimeGift = (t: Target, k: number) => {
  let seen = -1;
  for (let i = HEAVY * GIFTS_PER_HEAVY; i < t.volumes.gifts; i++) {
    if (i % 3 === 2 && i % 20 >= 2 && i % 4 !== 0 && ++seen === k) return { id: md5Gift(i), i };
  }
  throw new Error(`not enough gifts for number ${k}`);
};
const senderOfGift = (t: Target, i: number) => (i < HEAVY * GIFTS_PER_HEAVY ? Math.floor(i / GIFTS_PER_HEAVY) : HEAVY + (i % Math.max(1, t.volumes.senders - HEAVY)));

function measures(): Measure[] {
  const W = 3;
  return [
    {
      name: 'verify-gift',
      warmups: W,
      runs: RUNS,
      prepare: (t, i) => ({ call: () => t.services.recipientAuth.verifyGift(md5Gift((i * 7 + 11) % t.volumes.gifts)) }),
    },
    {
      name: 'check-email',
      warmups: W,
      runs: RUNS,
      prepare: (t, i) => ({ call: () => t.services.recipientAuth.checkEmail(`r${(i * 3 + 5) % Math.floor(t.volumes.gifts / 2)}@example.test`) }),
    },
    {
      name: 'verify-otp',
      warmups: W,
      runs: RUNS,
      async prepare(t, i) {
        const email = `r${(i * 5 + 40) % Math.floor(t.volumes.gifts / 2)}@example.test`;
        await t.services.recipientAuth.sendCode(email, '127.0.0.1');
        await t.services.mailLastCode();
        const code = codeOf(t.outbox.pop());
        return { call: () => t.services.recipientAuth.verifyCode(email, code) };
      },
    },
    {
      name: 'my-gifts',
      warmups: W,
      runs: RUNS,
      async prepare(t) {
        const sender = await senderRow(t.db, 0);
        return {
          call: () => t.services.myGifts.list(sender),
          after: (list) => {
            if ((list as unknown[]).length !== GIFTS_PER_HEAVY) throw new Error(`my-gifts listed ${(list as unknown[]).length}`);
          },
        };
      },
    },
    {
      name: 'scheduled-messages',
      warmups: W,
      runs: RUNS,
      async prepare(t, i) {
        // Gift 5k+2 has delivery k; the first of them belong to heavy senders.
        const giftIndex = 5 * (i % 40) + 2;
        const sender = await senderRow(t.db, senderOfGift(t, giftIndex));
        return { call: () => t.services.deliveries.list(sender, md5Gift(giftIndex)) };
      },
    },
    {
      name: 'scan',
      warmups: W,
      runs: RUNS,
      prepare(t, i) {
        const gift = ordinaryLifetimeGift(t, i);
        return {
          call: () => t.services.scans.scanGift(gift.id, Buffer.from('photo'), `10.9.${i >> 8}.${i & 255}`),
          after: (out) => {
            if (!(out as { grant: unknown }).grant) throw new Error('the scan was not a match');
          },
        };
      },
    },
    {
      name: 'job-claim',
      warmups: W,
      runs: RUNS,
      prepare: (t) => ({
        call: () => claimJobs(t.db, { now: new Date(), limit: 4, leaseMs: 120_000, kinds: { except: RENDER_JOB_KINDS } }),
        after: async (jobs) => {
          const claimed = jobs as { id: string }[];
          if (claimed.length !== 4) throw new Error(`claimed ${claimed.length}`);
          // Put back (small has only 10 due jobs): every run claims from the same backlog.
          await t.db
            .updateTable('jobs')
            .set((eb) => ({ status: 'queued', lock_token: null, locked_until: null, attempts: eb('attempts', '-', 1) }))
            .where('id', 'in', claimed.map((j) => j.id))
            .execute();
        },
      }),
    },
    {
      name: 'housekeeping',
      warmups: 1,
      runs: Math.max(3, RUNS - 2),
      async prepare(t, i) {
        const left = await housekeepingInflow(t.db, i, new Date());
        return {
          call: () => t.services.housekeeping.run(),
          after: async (report) => {
            const n = await left();
            const r = report as HousekeepingReport & { left?: Record<string, number> };
            const reported = r.left ? Object.values(r.left).reduce((a, b) => a + b, 0) : null;
            return `left=${n}${reported === null ? '' : ` reported-left=${reported}`}`;
          },
        };
      },
    },
    {
      name: 'delete-gift',
      warmups: W,
      runs: RUNS,
      async prepare(t, i) {
        const gift = ordinaryLifetimeGift(t, 30 + i);
        const sender = await senderRow(t.db, senderOfGift(t, gift.i));
        return { call: () => t.services.myGifts.deleteGift(sender, gift.id) };
      },
    },
    {
      name: 'delete-account',
      warmups: 1,
      runs: Math.min(HEAVY - 2, Math.max(3, RUNS - 2)),
      async prepare(t, i) {
        const sender = await senderRow(t.db, 2 + i);
        return { call: () => t.services.myGifts.deleteAccount(sender) };
      },
    },
    {
      name: 'sign-out-everywhere',
      warmups: W,
      runs: RUNS,
      async prepare(t, i) {
        const sender = await senderRow(t.db, t.volumes.senders - 1 - i);
        return {
          call: () => t.services.senderAuth.signOutEverywhere(sender),
          after: (n) => {
            if (n === 0) throw new Error('no session ended');
          },
        };
      },
    },
  ];
}

// ---------- main ----------

async function main() {
  const problem = await postgresProblem();
  if (problem) throw new Error(`PostgreSQL not reachable at ${PG_URL}: ${problem}`);
  const now = new Date();
  const scratch = mkdtempSync(path.join(tmpdir(), 'giftlens-growth-'));
  const targets: Target[] = [];
  try {
    for (const [name, factor] of [
      ['small', SMALL],
      ['big', SCALE],
    ] as const) {
      const dbName = `giftlens_growth_${name}_${process.pid}`;
      await admin(`CREATE DATABASE ${dbName}`);
      created.push(dbName);
      const url = urlOf(dbName);
      const v = volumes(factor);
      console.log(`seeding ${dbName}: ${v.gifts} gifts, ${v.senders} senders, ${v.sessions} sessions, ${v.codes} codes, ${v.deliveries} deliveries`);
      const db = await createDatabase({ kind: 'postgres', url });
      // The schema as of the last migration this seed was written for; newer ones (with their backfills) run after.
      await migrateUpTo(db, SEEDED_SCHEMA);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await timed('seed', () => seed(client, v, now));
        await timed('vacuum analyze', () => client.query('VACUUM ANALYZE'));
        const counts = await client.query<{ t: string; n: string }>(
          `SELECT 'gifts' t, count(*) n FROM gifts UNION ALL SELECT 'jobs', count(*) FROM jobs UNION ALL
           SELECT 'due jobs', count(*) FROM jobs WHERE status = 'queued' AND run_at <= $1 UNION ALL SELECT 'sessions', count(*) FROM sessions
           UNION ALL SELECT 'codes', count(*) FROM verification_codes UNION ALL SELECT 'photos', count(*) FROM gift_photos
           UNION ALL SELECT 'orders', count(*) FROM orders UNION ALL SELECT 'deliveries', count(*) FROM scheduled_messages
           UNION ALL SELECT 'grants', count(*) FROM reveal_grants`,
          [new Date().toISOString()],
        );
        console.log(`  ${counts.rows.map((r) => `${r.t}=${r.n}`).join(' ')}`);
        const applied = await timed('migrations after the seed', () => migrateToLatest(db));
        console.log(`  applied: ${applied.join(', ') || 'none'}`);
        if (applied.length) await timed('analyze', () => client.query('ANALYZE'));
      } finally {
        await client.end();
      }
      const outbox: MailMessage[] = [];
      targets.push({ name, db, volumes: v, outbox, services: servicesFor(db, path.join(scratch, name), outbox) });
    }

    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    // What the seed leaves due at once (render jobs never looked at for leftovers, expired upload targets, the last
    // hour's grants) is the one-time backlog of a first run after the migration, not an hour's inflow: housekeeping
    // works it off first, in the runs a minute apart its report asks for, and the measure below is the steady state.
    for (const t of targets) {
      const runs: number[] = [];
      let removed = 0;
      for (let left = Infinity; left > 0 && runs.length < 100; ) {
        const t0 = performance.now();
        const report = await t.services.housekeeping.run();
        runs.push(performance.now() - t0);
        removed += Object.entries(report).reduce((n, [k, v]) => (!['left', 'filesDeleted', 'filesFailed'].includes(k) && typeof v === 'number' ? n + v : n), 0);
        left = Object.values(report.left).reduce((a, b) => a + b, 0);
      }
      console.log(
        `growth housekeeping-backlog ${t.name}: ${runs.length} runs (a minute apart in service) removed ${removed}, longest run ${Math.max(...runs).toFixed(0)} ms, ${runs.map((r) => r.toFixed(0)).join(' ')}`,
      );
    }
    for (const m of measures()) {
      const times: Record<string, number[]> = { small: [], big: [] };
      const notes: Record<string, string[]> = { small: [], big: [] };
      for (let i = 0; i < m.warmups + m.runs; i++) {
        for (const t of targets) {
          const { call, after } = await m.prepare(t, i);
          const t0 = performance.now();
          const out = await call();
          const ms = performance.now() - t0;
          const note = after ? await after(out) : undefined;
          if (i >= m.warmups) {
            times[t.name]!.push(ms);
            if (note) notes[t.name]!.push(note);
          }
        }
      }
      const small = median(times.small!);
      const big = median(times.big!);
      const extra = notes.big!.length ? ` (big: ${[...new Set(notes.big)].join(', ')}; small: ${[...new Set(notes.small)].join(', ')})` : '';
      console.log(`growth ${m.name} small=${small.toFixed(2)} big=${big.toFixed(2)} ratio=${(big / small).toFixed(2)}${extra}`);
      console.log(`  runs small: ${times.small!.map((x) => x.toFixed(1)).join(' ')} | big: ${times.big!.map((x) => x.toFixed(1)).join(' ')}`);
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    for (const t of targets) await t.db.destroy().catch(() => undefined);
    await dropAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void dropAll().finally(() => process.exit(130));
  });
}

main().catch(async (err: unknown) => {
  console.error(err);
  await dropAll();
  process.exitCode = 1;
});
