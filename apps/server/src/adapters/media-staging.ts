import { createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomHex } from '../lib/crypto.ts';

/** Thrown while streaming as soon as more than maxBytes arrived; the partial file is already gone. */
export class SizeLimitExceededError extends Error {
  constructor(readonly receivedBytes: number) {
    super('Upload exceeds the size limit');
    this.name = 'SizeLimitExceededError';
  }
}

const prematureClose = () => Object.assign(new Error('Upload ended early'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

/**
 * A local folder where bytes the server itself receives (reactions, the local PUT target) are written as
 * `*.part` while they arrive, before they move to their key: on disk (a rename) or to S3 (an upload).
 */
export function createStaging(dir: string) {
  return {
    dir,

    /** Streams into a new `.part` file, enforcing maxBytes while the bytes arrive. */
    async receive(source: Readable, maxBytes: number): Promise<{ file: string; size: number }> {
      await mkdir(dir, { recursive: true });
      const tmp = path.join(dir, `${randomHex(12)}.part`);
      const size = await new Promise<number>((resolve, reject) => {
        const out = createWriteStream(tmp);
        let received = 0;
        let settled = false;
        const fail = (err: Error) => {
          if (settled) return;
          settled = true;
          // Stop reading but leave the request itself alone, so the client still gets our 413 answer.
          source.off('data', onData);
          source.unpipe();
          source.pause();
          // The temp file is removed after this rejects: wait until the stream has really let go of it (an
          // open still in flight would otherwise create the file after the removal).
          out.destroy();
          if (out.closed) reject(err);
          else out.once('close', () => reject(err));
        };
        const onData = (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) return fail(new SizeLimitExceededError(received));
          if (!out.write(chunk)) {
            source.pause();
            out.once('drain', () => source.resume());
          }
        };
        let ended = false;
        source.on('data', onData);
        source.once('end', () => {
          ended = true;
          if (!settled) out.end();
        });
        // A source torn down without 'end' or 'error' (a truncated multipart part) would otherwise hang here.
        source.once('close', () => {
          if (!ended) fail(prematureClose());
        });
        source.once('error', fail);
        source.once('aborted', () => fail(new Error('Upload aborted by the client')));
        out.once('error', fail);
        // The source may have failed while the folder was being made, before any listener was attached.
        if (source.destroyed && !ended) fail(source.errored ?? prematureClose());
        out.once('finish', () => {
          if (settled) return;
          settled = true;
          resolve(received);
        });
      }).catch(async (err: unknown) => {
        await rm(tmp, { force: true });
        throw err;
      });
      return { file: tmp, size };
    },

    /** Whether files can be staged now. */
    async check(): Promise<void> {
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
    },

    /** Removes `.part` files left by a process killed mid-upload, older than `olderThanMs`; returns how many. */
    async removeStale(olderThanMs: number, now: Date): Promise<number> {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0; // no upload ever started
      }
      let removed = 0;
      for (const name of names.filter((n) => n.endsWith('.part'))) {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => null);
        if (info && now.getTime() - info.mtimeMs > olderThanMs) {
          await rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
