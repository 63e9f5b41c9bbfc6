import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { RUNTIME_FILE, type E2ERuntime } from './paths.ts';

/**
 * Test data written straight into the e2e server's SQLite database (WAL allows a second writer), for states that
 * the UI would only reach after waiting out real limits, such as a sender who registered days ago.
 */
function openDb(): Database.Database {
  const { dataDir } = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as E2ERuntime;
  return new Database(join(dataDir, 'giftlens.sqlite'));
}

/** A sender who verified and gave a first name on an earlier visit. */
export function seedReturningSender(email: string, firstName: string): void {
  const db = openDb();
  try {
    const lastWeek = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
    db.prepare(
      'INSERT INTO senders (id, email, phone_number, first_name, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, ?)',
    ).run(randomBytes(16).toString('hex'), email, firstName, lastWeek, lastWeek);
  } finally {
    db.close();
  }
}

/** Reactions stored for a gift (the sender's side of the reaction feature). */
export interface ReactionRow {
  status: string;
  consent_granted: number | null;
  file_path: string | null;
}

export function reactionsFor(giftId: string): ReactionRow[] {
  const db = openDb();
  try {
    return db.prepare('SELECT * FROM reactions WHERE gift_id = ?').all(giftId) as ReactionRow[];
  } finally {
    db.close();
  }
}

/**
 * The last code to this address was sent long ago (as when a sender comes back another day): the resend
 * cooldown is over, so the address can ask for a new code at once.
 */
export function endCodeCooldown(email: string): void {
  const db = openDb();
  try {
    db.prepare('UPDATE code_resends SET sent_at = ? WHERE destination = ?').run(
      new Date(Date.now() - 24 * 3600 * 1000).toISOString(),
      email.toLowerCase(),
    );
  } finally {
    db.close();
  }
}
