import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { staffTexts } from '@giftlens/contract/staff';
import { expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(REPO, 'apps/server/src/staff-cli.ts');
const SOLO = 'solo@giftlens.test';

/** The operator's command as a process (its reset itself: staff.test.ts), on a SQLite data folder of its own. */
async function staffCommand(dataDir: string, ...argv: string[]) {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', STAFF_EMAILS: SOLO, SESSION_SECRET: 'x'.repeat(32), PAYMENTS: 'test', LOG_LEVEL: 'error' };
  return promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...argv], { cwd: REPO, env, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

it('the staff command reads the server’s settings, says what it did or refused, and exits 0 or 2', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'giftlens-staff-command-'));
  try {
    const refused = await staffCommand(dataDir, 'reset-totp', 'someone@giftlens.test', '--reason', 'Lost phone');
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(staffTexts.memberNotFound);
    expect(refused.stderr).toContain(`STAFF_EMAILS here: ${SOLO}`);

    const done = await staffCommand(dataDir, 'reset-totp', SOLO, '--reason', 'Lost phone');
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`${SOLO} had no authenticator and no staff session: nothing to reset`);
    // Written in the data folder's database (the server's), with its audit entry.
    const db = await createDatabase({ kind: 'sqlite', file: path.join(dataDir, 'giftlens.sqlite') });
    try {
      const entries = await db.selectFrom('staff_audit').select(['staff_email', 'action', 'reason']).execute();
      expect(entries.map((e) => [e.action, e.reason])).toEqual([['reset_second_factor', 'Lost phone']]);
      expect(entries[0]!.staff_email).toMatch(/^operator .+ \(command line\)$/);
    } finally {
      await db.destroy();
    }

    const help = await staffCommand(dataDir, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run staff -- reset-totp EMAIL --reason "why"');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);
