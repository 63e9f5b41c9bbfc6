import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * This process's own scratch folder, for local copies ffprobe and ffmpeg work on:
 * `<root>/<host>.<boot>.<pid namespace>.<pid>.<start ms>/`.
 * Several processes on one machine (a server and workers, or two workers) share `root` but never a folder, and a
 * sweep removes only what no running process can still be using: folders of processes of this host that are gone,
 * and this process's own leftovers that nothing holds (decision 038).
 */
export interface Scratch {
  /** The root all processes of a DATA_DIR share. */
  readonly root: string;
  /** This process's folder under the root. */
  readonly dir: string;
  /** A new empty folder in this process's scratch, held until `release`. */
  make(prefix: string): Promise<string>;
  /** Removes a folder `make` gave (and forgets it). */
  release(folder: string): Promise<void>;
  /**
   * Removes folders of this host's processes that no longer run, and this process's own folders older than
   * `olderThanMs` that are not held. Another running process's folder is never touched. Returns how many went.
   */
  sweep(olderThanMs: number, now: Date): Promise<number>;
}

/** Whether a process with this id runs in our pid namespace (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What makes a process id mean one process: this boot of the machine and this pid namespace (two containers sharing a
 * DATA_DIR and a host name each have their own pid 1). `x` where /proc does not say (not Linux).
 */
function pidSpace(): { boot: string; ns: string } {
  let boot = 'x';
  let ns = 'x';
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').replace(/[^0-9a-f]/g, '').slice(0, 12) || 'x';
  } catch {
    // not Linux
  }
  try {
    ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? 'x';
  } catch {
    // not Linux
  }
  return { boot, ns };
}

/** `<host>.<boot>.<pid namespace>.<pid>.<start ms>`; the host name may hold dots. */
const FOLDER = /^(.+)\.([0-9a-f]+|x)\.(\d+|x)\.(\d+)\.(\d+)$/;

export interface ScratchOwner {
  host: string;
  boot: string;
  ns: string;
  pid: number;
  startedAt: number;
}

export const thisProcess = (): ScratchOwner => ({ host: hostname(), ...pidSpace(), pid: process.pid, startedAt: Date.now() });

export function createScratch(root: string, self: ScratchOwner = thisProcess()): Scratch {
  const own = `${self.host}.${self.boot}.${self.ns}.${self.pid}.${self.startedAt}`;
  const dir = path.join(root, own);
  const held = new Set<string>();

  /**
   * How a folder under the root may be judged: `gone` (its process no longer runs: remove it all), `aged` (a process
   * whose ids mean nothing here, in another pid namespace or before a reboot: only folders older than the sweep's
   * age go, far past any render's wall clock), or `keep` (another machine's, or a running process's).
   */
  function judge(name: string): 'gone' | 'aged' | 'keep' {
    const m = FOLDER.exec(name);
    if (!m || m[1] !== self.host) return 'keep';
    if (m[2] !== self.boot || m[3] !== self.ns) return 'aged';
    const pid = Number(m[4]);
    // The same id as ours but an earlier start: a process before a restart that got our id.
    if (pid === self.pid) return m[5] !== String(self.startedAt) ? 'gone' : 'keep';
    return running(pid) ? 'keep' : 'gone';
  }

  /** Removes `parent`'s folders older than `olderThanMs` that this process does not hold; how many went. */
  async function removeOld(parent: string, olderThanMs: number, now: Date): Promise<number> {
    let removed = 0;
    for (const name of await readdir(parent).catch(() => [])) {
      const folder = path.join(parent, name);
      if (held.has(folder)) continue;
      const info = await stat(folder).catch(() => null);
      if (info && now.getTime() - info.mtimeMs > olderThanMs) {
        await rm(folder, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  return {
    root,
    dir,
    async make(prefix) {
      await mkdir(dir, { recursive: true });
      const folder = await mkdtemp(path.join(dir, prefix));
      held.add(folder);
      return folder;
    },
    async release(folder) {
      held.delete(folder);
      await rm(folder, { recursive: true, force: true });
    },
    async sweep(olderThanMs, now) {
      let removed = 0;
      for (const name of await readdir(root).catch(() => [])) {
        if (name === own) continue;
        const verdict = judge(name);
        if (verdict === 'gone') {
          await rm(path.join(root, name), { recursive: true, force: true });
          removed++;
        } else if (verdict === 'aged') {
          removed += await removeOld(path.join(root, name), olderThanMs, now);
        }
      }
      return removed + (await removeOld(dir, olderThanMs, now));
    },
  };
}
