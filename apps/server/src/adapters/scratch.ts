import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * This process's own scratch folder, for local copies ffprobe and ffmpeg work on: `<root>/<host>.<pid>.<start>/`.
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

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const FOLDER = /^(.+)\.(\d+)\.(\d+)$/;

export function createScratch(root: string, self = { host: hostname(), pid: process.pid, startedAt: Date.now() }): Scratch {
  const own = `${self.host}.${self.pid}.${self.startedAt}`;
  const dir = path.join(root, own);
  const held = new Set<string>();

  /** Whether a folder under the root may be removed by this process. */
  function gone(name: string): boolean {
    const m = FOLDER.exec(name);
    if (!m || m[1] !== self.host) return false; // another machine's (a shared DATA_DIR): not ours to judge
    const pid = Number(m[2]);
    // The same id as ours but an earlier start: a process before a restart that got our id (pid 1 in a container).
    if (pid === self.pid) return m[3] !== String(self.startedAt);
    return !running(pid);
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
        if (gone(name)) {
          await rm(path.join(root, name), { recursive: true, force: true });
          removed++;
        }
      }
      for (const name of await readdir(dir).catch(() => [])) {
        const folder = path.join(dir, name);
        if (held.has(folder)) continue;
        const info = await stat(folder).catch(() => null);
        if (info && now.getTime() - info.mtimeMs > olderThanMs) {
          await rm(folder, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
