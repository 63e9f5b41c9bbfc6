import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratch, thisProcess } from '../src/adapters/scratch.ts';

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

describe('each process keeps its scratch in a folder of its own', () => {
  it('a sweep removes what processes of this host that no longer run left, and never another running process’s folder', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'giftlens-scratch-test-'));
    roots.push(root);
    const { alive, ended } = await processes();
    try {
      const now = Date.now();
      const me = { ...thisProcess(), startedAt: now };
      const { host, boot, ns } = me;
      const folder = (pid: number | undefined, started: number, space = `${boot}.${ns}`, machine = host) =>
        path.join(root, `${machine}.${space}.${pid}.${started}`, 'giftlens-render-x');
      // The other running process (a worker on this machine) is in the middle of a render.
      const running = folder(alive.pid, now - 5000);
      // A process killed with -9 left its render copy behind; so did our own pid before a restart (pid 1 in a container).
      const dead = folder(ended, now - 9000);
      const beforeRestart = folder(process.pid, now - 60_000);
      // Another machine sharing the folder: not ours to judge.
      const elsewhere = folder(ended, now - 9000, `${boot}.${ns}`, 'some-other-host');
      // Another container with this host name and its own pid namespace: its pid 1 says nothing here, and its folder
      // in use (an hour old: a render's wall clock) stays; only what is older than the sweep's age goes.
      const otherContainerInUse = folder(1, now - 9000, `${boot}.1234`);
      const otherContainerOld = path.join(path.dirname(otherContainerInUse), 'giftlens-render-old');
      for (const dir of [running, dead, beforeRestart, elsewhere, otherContainerInUse, otherContainerOld]) mkdirSync(dir, { recursive: true });
      // Old folders, all of them: age alone never condemns a running process's folder.
      const old = new Date(now - 24 * 3600_000);
      for (const dir of [running, dead, beforeRestart, elsewhere, otherContainerOld]) utimesSync(dir, old, old);
      utimesSync(otherContainerInUse, new Date(now - 3600_000), new Date(now - 3600_000));

      const scratch = createScratch(root, me);
      const held = await scratch.make('giftlens-render-');
      const leftover = await scratch.make('giftlens-probe-');
      // A leftover of our own that nothing holds any more (its release failed), 7 hours old.
      await scratch.release(leftover).then(() => mkdirSync(leftover));
      utimesSync(leftover, new Date(now - 7 * 3600_000), new Date(now - 7 * 3600_000));
      utimesSync(held, new Date(now - 7 * 3600_000), new Date(now - 7 * 3600_000));

      expect(await scratch.sweep(6 * 3600_000, new Date(now))).toBe(4);
      expect(existsSync(running)).toBe(true);
      expect(existsSync(elsewhere)).toBe(true);
      expect(existsSync(otherContainerInUse)).toBe(true);
      expect(existsSync(otherContainerOld)).toBe(false);
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
      const theirs = createScratch(root, { ...thisProcess(), pid: alive.pid ?? 0 });
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
