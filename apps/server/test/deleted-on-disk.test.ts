import { sql } from 'kysely';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHousekeepingService } from '../src/modules/housekeeping/housekeeping.service.ts';
import { createGift } from './helpers/flows.ts';
import { DATABASE_TARGETS } from './helpers/databases.ts';
import { createHarness, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { activeGift, directScan, scanPhotos } from './helpers/recipient.ts';

/**
 * Deleted rows must not stay readable in the SQLite file or its write-ahead log: `secure_delete` zeroes
 * what a deletion frees, and a checkpoint after it empties the WAL, which held the pages as they were before.
 * PostgreSQL keeps dead tuples until VACUUM; docs/operations.md says what an operator does there.
 */

/** How often `needle` occurs in the raw bytes of the SQLite file, its -wal and -shm (whichever exist). */
async function occurrencesOnDisk(h: Harness, needle: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of (await readdir(h.dataDir)).filter((f) => f.startsWith('giftlens.sqlite')).sort()) {
    const bytes = await readFile(path.join(h.dataDir, name));
    let n = 0;
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) n++;
    counts[name] = n;
  }
  return counts;
}
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Every .eml in the outbox that mentions `needle`. */
async function mailsHolding(h: Harness, needle: string): Promise<number> {
  const files = (await readdir(h.outboxDir)).filter((f) => f.endsWith('.eml'));
  const bodies = await Promise.all(files.map((f) => readFile(path.join(h.outboxDir, f), 'utf8')));
  return bodies.filter((b) => b.includes(needle)).length;
}

const sqlite = DATABASE_TARGETS.find((t) => t.name === 'sqlite')!;

describe('deleted rows are gone from the SQLite file and its WAL', () => {
  let current: Awaited<ReturnType<typeof createHarness>>;
  let photos: Awaited<ReturnType<typeof scanPhotos>>;
  beforeAll(async () => {
    photos = await scanPhotos();
    current = await createHarness(sqlite);
  }, 60_000);
  afterAll(() => current?.close(), 60_000);

  it('deleting the account leaves the address 0 times in the file, the WAL and the shm; the mails sent keep it', async () => {
    const h = current.harness;
    const email = uniqueEmail('erase-me-from-disk');
    const { cookie } = await signIn(h, email);
    await createGift(h, cookie);
    const giftId = await activeGift(h, cookie, { photo: photos.reference, recipientEmail: email, recipientName: 'Erase Me' });
    await activeGift(h, cookie, { photo: photos.reference, recipientEmail: email, pay: false });
    // These rows reach the main file, as SQLite's own checkpoint (every 1000 pages) takes them there: the deletion
    // must zero them in the file's pages.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(h.db);
    // What follows stays in the WAL: the opened gift's row, the recipient's code for the same address.
    expect((await directScan(h, giftId, photos.genuine)).statusCode).toBe(200);
    await h.app.inject({ method: 'POST', url: '/api/verification-recipient/send-code', payload: { email } });
    await h.jobs.runDue();
    const before = await occurrencesOnDisk(h, email);
    expect(before['giftlens.sqlite'], JSON.stringify(before)).toBeGreaterThan(0);
    expect(before['giftlens.sqlite-wal'], JSON.stringify(before)).toBeGreaterThan(0);

    const res = await h.app.inject({ method: 'DELETE', url: '/api/gift-sender/account', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    // Nothing of the address in the database's bytes once the deletion has answered: rows, index entries, freed
    // pages, WAL frames; nor after the files' job ran.
    const after = await occurrencesOnDisk(h, email);
    expect(total(after), JSON.stringify(after)).toBe(0);
    await h.jobs.runDue();
    const later = await occurrencesOnDisk(h, email);
    expect(total(later), JSON.stringify(later)).toBe(0);
    // What stays on purpose: the mails already sent (decision 016: outside our reach once handed over; here the
    // outbox stands in for the mail server). The paid order stays too, but without the address (my-gifts.test.ts).
    expect(await mailsHolding(h, email)).toBeGreaterThan(0);
  });

  it('housekeeping’s deletions leave the address 0 times on disk (expired codes and resend slots)', async () => {
    const h = current.harness;
    const email = uniqueEmail('code-only-on-disk');
    // A code asked for and never used: its row and resend slot hold the address until housekeeping.
    const sent = await h.app.inject({ method: 'POST', url: '/api/gift-sender/send-email', payload: { email, type: 'sender' } });
    expect(sent.statusCode, sent.body).toBe(200);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(h.db);
    // A second code after the cooldown: its rows are in the WAL only.
    h.clock.advance(5 * 60 * 1000);
    const again = await h.app.inject({ method: 'POST', url: '/api/gift-sender/send-email', payload: { email, type: 'sender' } });
    expect(again.statusCode, again.body).toBe(200);
    const before = await occurrencesOnDisk(h, email);
    expect(before['giftlens.sqlite'], JSON.stringify(before)).toBeGreaterThan(0);
    expect(before['giftlens.sqlite-wal'], JSON.stringify(before)).toBeGreaterThan(0);

    h.clock.advance(3 * 24 * 60 * 60 * 1000);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const report = await createHousekeepingService({ db: h.db, media: h.media, clock: h.clock, log: quiet }).run();
    expect(report.verificationCodes).toBeGreaterThan(0);
    const after = await occurrencesOnDisk(h, email);
    expect(total(after), JSON.stringify(after)).toBe(0);
  });
});
