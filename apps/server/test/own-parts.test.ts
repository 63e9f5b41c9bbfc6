import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { systemClock } from '../src/adapters/clock.ts';
import { createLocalMediaStorage } from '../src/adapters/media-storage.ts';
import { sweepOwnStaleParts } from '../src/modules/housekeeping/own-parts.ts';

it('an API node without jobs removes its own stale upload parts at start and on its timer, not a live one', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'giftlens-own-parts-'));
  const tmp = path.join(root, '.tmp');
  await mkdir(tmp, { recursive: true });
  const part = (name: string, hoursAgo: number) => {
    const file = path.join(tmp, name);
    const at = new Date(Date.now() - hoursAgo * 3600 * 1000);
    return writeFile(file, 'x').then(() => utimes(file, at, at)).then(() => file);
  };
  const killed = await part('killed-before-start.part', 7);
  const live = await part('uploading-now.part', 0);
  const lines: string[] = [];
  const stop = sweepOwnStaleParts({
    media: createLocalMediaStorage(root, 'a'.repeat(32)),
    clock: systemClock,
    log: { info: (l) => void lines.push(l), warn: (l) => void lines.push(l) },
    everyMs: 50,
  });
  try {
    await expect.poll(() => existsSync(killed)).toBe(false);
    // A part left later (a node killed mid-upload and restarted long ago) goes on the next round.
    const later = await part('killed-later.part', 6.5);
    await expect.poll(() => existsSync(later)).toBe(false);
    expect(existsSync(live)).toBe(true);
    // The round logs once its removals are done, a moment after the file is gone.
    await expect.poll(() => lines).toEqual([
      'housekeeping: removed 1 stale upload part(s) of this node',
      'housekeeping: removed 1 stale upload part(s) of this node',
    ]);
  } finally {
    stop();
  }
});
