import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratch } from '../src/adapters/scratch.ts';

/** A real process of this machine that runs until killed, and one that has already ended. */
async function processes() {
  const alive = spawn('sleep', ['60'], { stdio: 'ignore' });
  const ended = spawn('true', [], { stdio: 'ignore' });
  await new Promise((resolve) => ended.once('exit', resolve));
  return { alive, ended: ended.pid ?? 0 };
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('each process keeps its scratch in a folder of its own (issue 23)', () => {
  it('a sweep removes what processes of this host that no longer run left, and never another running process’s folder', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'giftlens-scratch-test-'));
    roots.push(root);
    const { alive, ended } = await processes();
    try {
      const now = Date.now();
      const host = hostname();
      // The other running process (a worker on this machine) is in the middle of a render.
      const running = path.join(root, `${host}.${alive.pid}.${now - 5000}`, 'giftlens-render-abc');
      // A process killed with -9 left its render copy behind; so did our own pid before a restart (pid 1 in a container).
      const dead = path.join(root, `${host}.${ended}.${now - 9000}`, 'giftlens-render-def');
      const beforeRestart = path.join(root, `${host}.${process.pid}.${now - 60_000}`, 'giftlens-render-ghi');
      // Another machine sharing the folder: not ours to judge.
      const elsewhere = path.join(root, `some-other-host.${ended}.${now - 9000}`, 'giftlens-render-jkl');
      for (const dir of [running, dead, beforeRestart, elsewhere]) mkdirSync(dir, { recursive: true });
      // Old folders, all of them: age alone never condemns another process's folder.
      const old = new Date(now - 24 * 3600_000);
      for (const dir of [running, dead, beforeRestart, elsewhere]) utimesSync(dir, old, old);

      const scratch = createScratch(root, { host, pid: process.pid, startedAt: now });
      const held = await scratch.make('giftlens-render-');
      const leftover = await scratch.make('giftlens-probe-');
      // A leftover of our own that nothing holds any more (its release failed), 7 hours old.
      await scratch.release(leftover).then(() => mkdirSync(leftover));
      utimesSync(leftover, new Date(now - 7 * 3600_000), new Date(now - 7 * 3600_000));
      utimesSync(held, new Date(now - 7 * 3600_000), new Date(now - 7 * 3600_000));

      expect(await scratch.sweep(6 * 3600_000, new Date(now))).toBe(3);
      expect(existsSync(running)).toBe(true);
      expect(existsSync(elsewhere)).toBe(true);
      expect(existsSync(held)).toBe(true);
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(beforeRestart)).toBe(false);
      expect(existsSync(leftover)).toBe(false);
      expect(path.dirname(held)).toBe(scratch.dir);

      await scratch.release(held);
      expect(readdirSync(scratch.dir)).toEqual([]);
    } finally {
      alive.kill('SIGKILL');
    }
  });

  it('two scratches on one root never share a folder', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'giftlens-scratch-test-'));
    roots.push(root);
    const { alive } = await processes();
    try {
      const mine = createScratch(root);
      const theirs = createScratch(root, { host: hostname(), pid: alive.pid ?? 0, startedAt: Date.now() });
      const a = await mine.make('giftlens-render-');
      const b = await theirs.make('giftlens-render-');
      expect(mine.dir).not.toBe(theirs.dir);
      // Each sweeps as if everything were stale: the other's folder, held by a running process, stays.
      await mine.sweep(0, new Date(Date.now() + 3600_000));
      await theirs.sweep(0, new Date(Date.now() + 3600_000));
      expect(existsSync(a)).toBe(true);
      expect(existsSync(b)).toBe(true);
    } finally {
      alive.kill('SIGKILL');
    }
  });
});
