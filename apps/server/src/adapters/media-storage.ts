import { createReadStream, createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { hmacHex, randomHex, safeEqual } from '../lib/crypto.ts';

/** Thrown while streaming as soon as more than maxBytes arrived; the partial file is already gone. */
export class SizeLimitExceededError extends Error {
  constructor(readonly receivedBytes: number) {
    super('Upload exceeds the size limit');
    this.name = 'SizeLimitExceededError';
  }
}

const prematureClose = () => Object.assign(new Error('Upload ended early'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

export interface ReceivedFile {
  size: number;
  /** Moves the received bytes to their final key. */
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

export interface MediaStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** Streams into a temporary file, enforcing maxBytes while the bytes arrive. */
  receive(source: Readable, maxBytes: number): Promise<ReceivedFile>;
  stat(key: string): Promise<{ size: number } | null>;
  readHead(key: string, bytes: number): Promise<Buffer>;
  createReadStream(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;
  /** Whether files can be stored now. */
  check(): Promise<void>;
  /** Removes partial uploads left by a process killed mid-upload, older than `olderThanMs`; returns how many. */
  removeStaleParts(olderThanMs: number, now: Date): Promise<number>;
  /** Stores a local file (a rendition ffmpeg wrote) under `key`; the local file is consumed. */
  putFile(key: string, localFile: string): Promise<void>;
  /** A URL that serves the object until ttlMs from now. */
  signedUrl(key: string, ttlMs: number, now?: Date): string;
  verifySignedUrl(key: string, exp: string, sig: string, now: Date): boolean;
  /** The URL the browser PUTs an upload to, for upload `id`, valid until `expiresAt`. */
  uploadUrl(id: string, expiresAt: Date): string;
  /** Whether `exp`/`sig` are this storage's signature of upload `id`, and not expired at `now`. */
  verifyUploadUrl(id: string, exp: string, sig: string, now: Date): boolean;
}

const KEY_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').includes('..');
}

/** Files under DATA_DIR/media, served by GET /media/<key>?exp=…&sig=… (HMAC-signed, expiring). */
export function createLocalMediaStorage(root: string, secret: string): MediaStorage {
  const tmpDir = path.join(root, '.tmp');
  const resolve = (key: string) => {
    if (!isValidKey(key)) throw new Error(`Invalid media key: ${key}`);
    return path.join(root, key);
  };
  const sign = (key: string, exp: string) => hmacHex(secret, `media:${key}:${exp}`);
  const signUpload = (id: string, exp: string) => hmacHex(secret, `upload:${id}:${exp}`);
  const validExp = (exp: string, now: Date) => /^\d{1,12}$/.test(exp) && Number(exp) * 1000 >= now.getTime();

  return {
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomHex(6)}.part`;
      await writeFile(tmp, data);
      await rename(tmp, file);
    },

    async receive(source, maxBytes) {
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${randomHex(12)}.part`);
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
      return {
        size,
        async commit(key) {
          const file = resolve(key);
          await mkdir(path.dirname(file), { recursive: true });
          await rename(tmp, file);
        },
        discard: () => rm(tmp, { force: true }),
      };
    },

    async stat(key) {
      try {
        const s = await stat(resolve(key));
        return s.isFile() ? { size: s.size } : null;
      } catch {
        return null;
      }
    },

    async readHead(key, bytes) {
      const handle = await open(resolve(key), 'r');
      try {
        const buffer = Buffer.alloc(bytes);
        const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    createReadStream(key, range) {
      return createReadStream(resolve(key), range);
    },

    async check() {
      await mkdir(tmpDir, { recursive: true });
      await access(tmpDir, constants.W_OK);
    },

    async removeStaleParts(olderThanMs, now) {
      let names: string[];
      try {
        names = await readdir(tmpDir);
      } catch {
        return 0; // no upload ever started
      }
      let removed = 0;
      for (const name of names.filter((n) => n.endsWith('.part'))) {
        const file = path.join(tmpDir, name);
        const info = await stat(file).catch(() => null);
        if (info && now.getTime() - info.mtimeMs > olderThanMs) {
          await rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },

    async putFile(key, localFile) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomHex(6)}.part`;
      // A copy then a rename: the key appears whole or not at all, even across file systems.
      await copyFile(localFile, tmp);
      await rename(tmp, file);
      await rm(localFile, { force: true });
    },

    async delete(key) {
      await rm(resolve(key), { force: true });
    },

    signedUrl(key, ttlMs, now = new Date()) {
      const exp = String(Math.floor((now.getTime() + ttlMs) / 1000));
      return `/media/${key}?exp=${exp}&sig=${sign(key, exp)}`;
    },

    verifySignedUrl(key, exp, sig, now) {
      return isValidKey(key) && validExp(exp, now) && safeEqual(sign(key, exp), sig);
    },

    uploadUrl(id, expiresAt) {
      const exp = String(Math.floor(expiresAt.getTime() / 1000));
      return `/api/uploads/${id}?exp=${exp}&sig=${signUpload(id, exp)}`;
    },

    verifyUploadUrl(id, exp, sig, now) {
      return validExp(exp, now) && safeEqual(signUpload(id, exp), sig);
    },
  };
}
