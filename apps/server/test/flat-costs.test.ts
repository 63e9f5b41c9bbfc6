import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompiledQuery, createQueryId, type Kysely, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, type Db } from '../src/db/database.ts';
import { isPostgres } from '../src/db/dialect.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrator.ts';
import { deleteOldJobs, endedJobsWithLeftovers } from '../src/jobs/jobs.repository.ts';
import { claimJobs } from '../src/jobs/runner.ts';
import * as auth from '../src/modules/auth/auth.repository.ts';
import { deleteGifts } from '../src/modules/gift-deletion/gift-deletion.ts';
import * as giftCleanup from '../src/modules/gifts/gift-cleanup.repository.ts';
import { photosOfOlderRecipe, photosOfOlderRecipeLeft, unratedPhotos } from '../src/modules/gifts/gift-photos.repository.ts';
import { REFERENCE_RECIPE } from '../src/adapters/recogniser.ts';
import * as payments from '../src/modules/payments/payments.repository.ts';
import { reactionPathsAmong } from '../src/modules/reactions/reactions.repository.ts';
import { deleteRecipientByEmail } from '../src/modules/recipient-auth/recipient-auth.repository.ts';
import { RENDER_JOB_KINDS } from '../src/modules/renditions/renditions.jobs.ts';
import { deleteExpiredGrants } from '../src/modules/reveal-grants/reveal-grants.repository.ts';
import { deleteOldScanFailures, deleteRecipientFailures } from '../src/modules/scans/scans.repository.ts';
import { deleteSender } from '../src/modules/sender-auth/sender-auth.repository.ts';
import * as uploads from '../src/modules/uploads/uploads.repository.ts';
import { DATABASE_TARGETS } from './helpers/databases.ts';
import { createScratchPostgres } from './helpers/postgres.ts';

// Decision 044: a gift's jobs carry its id (backfilled from their keys), and every background and deletion
// statement can be served by an index: checked with EXPLAIN on both databases (PostgreSQL with sequential scans
// priced out, so a plan that still scans a table has no index it could use).

const G = 'a'.repeat(32);
const D = 'd'.repeat(32);
const T = '2026-11-20T00:00:00.000Z';

/** Tables whose full scan grows with the data. */
const BIG = /^(jobs|gifts|gift_photos|sessions|verification_codes|code_resends|orders|scheduled_messages|upload_intents|reveal_grants|webhook_events|scan_failures|reactions|senders|push_subscriptions|recipients)$/;

for (const target of DATABASE_TARGETS) {
  describe.skipIf(target.unavailable !== null)(`flat costs at growth [${target.name}]`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      if (target.name === 'sqlite') {
        const dir = mkdtempSync(path.join(tmpdir(), 'giftlens-flat-'));
        db = await createDatabase({ kind: 'sqlite', file: path.join(dir, 'giftlens.sqlite') });
        cleanup = async () => {
          await db.destroy();
          rmSync(dir, { recursive: true, force: true });
        };
      } else {
        const scratch = await createScratchPostgres('giftlens_test_flat');
        db = await createDatabase({ kind: 'postgres', url: scratch.url });
        cleanup = async () => {
          await db.destroy();
          await scratch.drop();
        };
      }
      // The schema before this change, with jobs as the code wrote them; then the migration and its backfill.
      await migrateUpTo(db, '20261126070000_backup_code');
      await db.insertInto('senders').values({ id: 's1', email: 's1@example.test', phone_number: null, first_name: null, created_at: T, updated_at: T }).execute();
      await db
        .insertInto('gifts')
        .values({ id: G, sender_id: 's1', recipient_name: 'R', recipient_email: 'r@example.test', recipient_phone: null, occasion: 'birthday', plan_id: 'lifetime_in', status: 'active', message_type: 'text', message_path: null, message_mime: null, message_text: 'hi', message_size: null, paid_at: T, scans_used: 0, created_at: T, updated_at: T, first_opened_at: null, message_state: 'ready', message_poster_path: null, message_error: null, backup_code: null })
        .execute();
      await db
        .insertInto('scheduled_messages')
        .values({ id: D, gift_id: G, sender_id: 's1', contact_type: 'email', recipient_contact: 'r@example.test', scheduled_at: T, timezone: 'UTC', status: 'pending', attempts: 0, last_error: null, sent_at: null, created_at: T, updated_at: T })
        .execute();
      const keys = [`media:${G}:gifts/${G}/upload.webm`, `notice:opened:${G}`, `notice:opened:${G}:mail`, `notice:reaction:${G}:push:sub1`, `payment-confirmation:${G}`, `delivery:${D}`, 'housekeeping', null];
      await (db as unknown as Kysely<Omit<Database, 'jobs'> & { jobs: Omit<Database['jobs'], 'gift_id'> }>)
        .insertInto('jobs')
        .values(keys.map((key, i) => ({ id: `j${i}`, kind: 'notice.mail', payload: '{}', key, status: 'done' as const, run_at: T, attempts: 1, max_attempts: 6, lock_token: null, locked_until: null, last_error: null, created_at: T, updated_at: T, finished_at: T })))
        .execute();
      expect(await migrateToLatest(db)).toContain('20261126130000_flat_costs');
    }, 60_000);
    afterAll(() => cleanup?.(), 60_000);

    it("backfills every gift job's gift id from its key; jobs of no gift keep none", async () => {
      const rows = await db.selectFrom('jobs').select(['id', 'gift_id']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'j0', gift_id: G },
        { id: 'j1', gift_id: G },
        { id: 'j2', gift_id: G },
        { id: 'j3', gift_id: G },
        { id: 'j4', gift_id: G },
        { id: 'j5', gift_id: G },
        { id: 'j6', gift_id: null },
        { id: 'j7', gift_id: null },
      ]);
    });

    // On PostgreSQL with sequential scans priced out (enable_seqscan off): a plan that still scans a table has no
    // index that serves it. (The indexes must be usable at once: flat_costs builds the jobs' before its backfill.)
    it('serves every background and deletion statement from an index', async () => {
      const captured: RootOperationNode[] = [];
      const spy = db.withPlugin({
        transformQuery: ({ node }) => {
          captured.push(node);
          return node;
        },
        transformResult: ({ result }) => Promise.resolve(result),
      });
      const now = '2026-11-26T00:00:00.000Z';
      const statements: [string, () => Promise<unknown>][] = [
        ['claim (main lane)', () => claimJobs(spy, { now: new Date(now), limit: 4, leaseMs: 120_000, kinds: { except: RENDER_JOB_KINDS } })],
        ['claim (render lane)', () => claimJobs(spy, { now: new Date(now), limit: 1, leaseMs: 120_000, kinds: { only: RENDER_JOB_KINDS } })],
        // Senders taking turns (issue 37): the window of due jobs and each share's last turn, from indexes.
        ['claim (render lane, senders take turns)', () => claimJobs(spy, { now: new Date(now), limit: 2, leaseMs: 120_000, kinds: { only: RENDER_JOB_KINDS }, fair: true })],
        // The activity housekeeping's stale-gift query is given (as in housekeeping.service.ts).
        [
          'stale unpaid gifts',
          () =>
            spy.transaction().execute((trx) =>
              giftCleanup.lockStaleUnpaidGifts(trx, now, 200, [(eb) => payments.orderPaidOrTouchedSince(eb, now), (eb) => uploads.intentMadeSince(eb, now)]),
            ),
        ],
        ['ended gifts with content', () => spy.transaction().execute((trx) => giftCleanup.lockEndedGiftsWithContent(trx, 'premium_in', now, 200))],
        ['expired upload intents', () => spy.transaction().execute((trx) => uploads.lockExpiredIntents(trx, now, 200))],
        [
          'referenced paths',
          () => Promise.all([giftCleanup.giftPathsAmong(spy, ['gifts/x/m.mp4']), uploads.intentPathsAmong(spy, ['gifts/x/m.mp4']), reactionPathsAmong(spy, ['gifts/x/m.mp4'])]),
        ],
        ['ended render jobs', () => endedJobsWithLeftovers(spy, RENDER_JOB_KINDS, now, '', 200)],
        ['expired codes', () => auth.deleteExpiredCodes(spy, now, 200)],
        ['old resend slots', () => auth.deleteOldResends(spy, now, 200)],
        ['expired sessions', () => auth.deleteExpiredSessions(spy, now, 200)],
        ['expired grants', () => deleteExpiredGrants(spy, now, 200)],
        ['old scan failures', () => deleteOldScanFailures(spy, now, 200)],
        ['old webhook events', () => payments.deleteOldWebhookEvents(spy, now, 200)],
        ['old jobs', () => deleteOldJobs(spy, now, now, 200)],
        ['old orphan orders', () => payments.deleteOldOrphanOrders(spy, now, 200)],
        ['unrated photos', () => unratedPhotos(spy, '', 20)],
        ['photos of an older recipe', () => photosOfOlderRecipe(spy, REFERENCE_RECIPE, '', 20)],
        ['what is left (photos of an older recipe)', () => photosOfOlderRecipeLeft(spy, REFERENCE_RECIPE, '')],
        ['what is left (codes)', () => auth.expiredCodesLeft(spy, now)],
        ['a gift deleted', () => spy.transaction().execute((trx) => deleteGifts(trx, ['x'.repeat(32)], new Date(now)))],
        // What deleting an account runs after its gifts (my-gifts.service.ts's deleteAccount).
        [
          'an account deleted',
          () =>
            spy.transaction().execute(async (trx) => {
              await auth.deleteSubjectSessions(trx, 'sender', 'nobody');
              await auth.deleteSubjectSessions(trx, 'recipient', 'nobody@example.test');
              await deleteRecipientByEmail(trx, 'nobody@example.test');
              await auth.deleteCodesOf(trx, 'nobody@example.test');
              await deleteRecipientFailures(trx, 'nobody@example.test');
              await deleteSender(trx, 'nobody');
            }),
        ],
        ['sign out everywhere', () => auth.deleteSubjectSessions(spy, 'sender', 'nobody')],
      ];
      const postgres = isPostgres(db);
      const problems: string[] = [];
      for (const [name, run] of statements) {
        captured.length = 0;
        await run();
        for (const node of captured) {
          const compiled = db.getExecutor().compileQuery(node, createQueryId());
          if (!/^\s*(select|update|delete|with)/i.test(compiled.sql)) continue;
          const plan = await db.connection().execute(async (conn) => {
            if (postgres) await conn.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
            try {
              const res = await conn.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${postgres ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${compiled.sql}`, [...compiled.parameters]));
              return res.rows.map((r) => String(postgres ? r['QUERY PLAN'] : r.detail));
            } finally {
              if (postgres) await conn.executeQuery(CompiledQuery.raw('RESET enable_seqscan'));
            }
          });
          const scans = plan.filter((line) => {
            const table = postgres ? /Seq Scan on (\w+)/.exec(line)?.[1] : /^SCAN (\w+)$/.exec(line.trim())?.[1];
            return table !== undefined && BIG.test(table);
          });
          if (scans.length > 0) problems.push(`${name}: ${compiled.sql}\n  ${plan.join('\n  ')}`);
        }
      }
      expect(problems).toEqual([]);
    });
  });
}
