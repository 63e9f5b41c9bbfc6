import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { GIFT_PHOTOS_DIR } from './helpers/media.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * `npm run match -- --pairs PAIRS.csv` is the command a check runs on photos we do not have (issue 29): it must work
 * from the repository root, read paths relative to the CSV, and print one decision per pair.
 */
it('npm run match prints one JSON decision per pair of a CSV, paths relative to it', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'giftlens-match-command-'));
  try {
    const covers = path.relative(dir, path.join(GIFT_PHOTOS_DIR, 'covers'));
    const csv = path.join(dir, 'pairs.csv');
    await writeFile(
      csv,
      `reference,query,label,kind\n${covers}/reference/001.jpg,${covers}/photos/001-canon.jpg,1,printed-flat\n${covers}/reference/002.jpg,${covers}/photos/001-canon.jpg,0,printed-flat\n` +
        `${covers}/reference/003.jpg,missing.jpg,1,printed-flat\n`,
    );
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'match', '--', '--pairs', csv], { cwd: ROOT, timeout: 120_000 });
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { reference: string; query: string; match: boolean; score: number; ms: number; error?: string });
    expect(lines.map((l) => [l.reference.split('/').pop(), l.match, l.error])).toEqual([
      ['001.jpg', true, undefined],
      ['002.jpg', false, undefined],
      // a photo that is not there is that pair's failure, said on its line; the run goes on
      ['003.jpg', false, 'ENOENT'],
    ]);
    for (const l of lines.slice(0, 2)) expect(l.ms).toBeGreaterThan(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 150_000);

it('npm run match without a readable CSV says so and exits 2', async () => {
  const run = promisify(execFile)('npm', ['run', '-s', 'match', '--', '--pairs', path.join(tmpdir(), 'giftlens-no-such-pairs.csv')], { cwd: ROOT, timeout: 60_000 });
  await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read') as unknown });
}, 90_000);
