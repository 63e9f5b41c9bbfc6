import { servedContentType } from '@giftlens/contract/media';
import type { Stats } from 'node:fs';
import { copyFile, type FileHandle, link, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { hmacHex, randomHex, safeEqual } from '../lib/crypto.ts';
import { createStaging } from './media-staging.ts';

export { SizeLimitExceededError } from './media-staging.ts';

/**
 * The object at a key is not the version a caller checked (`stat().version`): it was replaced meanwhile, e.g. a
 * presigned PUT used again while confirm-upload was checking the first one.
 */
export class MediaChangedError extends Error {
  constructor(readonly key: string) {
    super(`The media at ${key} changed since it was checked`);
    this.name = 'MediaChangedError';
  }
}

/** What `stat` says of a stored object: its size and a token that changes whenever it is replaced. */
export interface MediaStat {
  size: number;
  /** The ETag on S3; inode, modification time and size on local files (every write here is a new file). */
  version: string;
}

export interface ReceivedFile {
  size: number;
  /** Where the bytes wait on this machine until commit: checks (sniffing, ffprobe) read them here. */
  localFile: string;
  /** Moves the received bytes to their final key. */
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

/** Where GET /media/<key> takes the bytes from: a file on this machine, or a presigned URL of the bucket. */
export type MediaSource = { kind: 'file'; root: string; file: string } | { kind: 'url'; url: string };

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** The origin browsers upload to and load media from when it is not ours (the bucket), for the CSP; else null. */
  readonly browserOrigin: string | null;
  put(key: string, data: Buffer): Promise<void>;
  /** Streams into a temporary file, enforcing maxBytes while the bytes arrive. */
  receive(source: Readable, maxBytes: number): Promise<ReceivedFile>;
  stat(key: string): Promise<MediaStat | null>;
  /** The first bytes; with `version`, of that version only (else MediaChangedError). */
  readHead(key: string, bytes: number, version?: string): Promise<Buffer>;
  /** The whole object, streamed (a copy for ffprobe/ffmpeg); with `version`, that version only. */
  openRead(key: string, version?: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Whether files can be stored now. */
  check(): Promise<void>;
  /** Removes partial uploads left by a process killed mid-upload, older than `olderThanMs`; returns how many. */
  removeStaleParts(olderThanMs: number, now: Date): Promise<number>;
  /** Stores a local file (a rendition ffmpeg wrote) under `key`; the local file is consumed. */
  putFile(key: string, localFile: string): Promise<void>;
  /**
   * A URL that serves the object until ttlMs from now; with `download`, as an attachment (a `download=1` the
   * signature covers: it can be neither added to a URL signed without it nor taken off one signed with it).
   */
  signedUrl(key: string, ttlMs: number, now?: Date, opts?: SignedUrlOptions): string;
  /**
   * Whether `exp`/`sig` sign `key` for this disposition (`download`: the URL carries `download=1`; `name`: the
   * download's `name=`, signed with it), unexpired.
   */
  verifySignedUrl(key: string, exp: string, sig: string, now: Date, download: boolean, name?: string | null): boolean;
  /**
   * For a verified signed URL that is valid until `expiresAt`: where its bytes come from (null: no such file,
   * known without asking a remote service).
   */
  source(key: string, opts: { download: boolean; name?: string | null; expiresAt: Date; now: Date }): Promise<MediaSource | null>;
  /** The URL the browser PUTs upload `id` (to be stored as `key`) to, valid until `expiresAt`. */
  uploadUrl(upload: { id: string; key: string; expiresAt: Date; now: Date }): Promise<string>;
  /**
   * Where the bytes of upload `id` land before confirm-upload checks them: `key` itself when only the server
   * writes there, a separate key when the browser holds a reusable presigned PUT (so nothing it sends after the
   * checks reaches the checked file).
   */
  landingKey(key: string): string;
  /**
   * Makes the checked `version` of an upload its key's content (a copy from the landing key, nothing to copy when
   * they are the same); MediaChangedError when the landing key holds another version by now.
   */
  promoteUpload(landingKey: string, key: string, version: string): Promise<void>;
  /** Whether `exp`/`sig` are this server's signature of upload `id`, and not expired at `now`. */
  verifyUploadUrl(id: string, exp: string, sig: string, now: Date): boolean;
}

const KEY_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').includes('..');
}

/** The type media is served as, by the key's extension (never what an uploader claimed): the contract's table. */
export const contentTypeOf = servedContentType;

/**
 * The keys to delete so that nothing of these files stays: each key, and where an upload to it may have landed
 * (on S3 a browser may PUT there again until its presigned URL expires).
 */
export const withLandingKeys = (media: MediaStorage, keys: string[]) => [...new Set(keys.flatMap((k) => [k, media.landingKey(k)]))];

/** What a signed media URL may carry besides the key: a download, and the name it is saved as. */
export interface SignedUrlOptions {
  download?: boolean;
  /** A download's file name without extension, e.g. "Message for Ravi" (the extension is the stored file's). */
  name?: string;
}

// C0 and C1 controls, zero-widths and bidirectional controls (a right-to-left override can make "…gpj.exe" read
// as "…exe.jpg"): \p{Cc} and \p{Cf}.
const UNSAFE_NAME_CHARACTERS = /[\p{Cc}\p{Cf}]/gu;

/**
 * A person's words made safe as a file name on every system: no controls or direction marks, no path separators or
 * characters Windows refuses, no leading dots, at most 100 characters; "GiftLens" when nothing is left.
 */
export function safeFileBase(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(UNSAFE_NAME_CHARACTERS, '')
    .replace(/[\\/:*?"<>|]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return [...cleaned].slice(0, 100).join('').trim() || 'GiftLens';
}

/** The name a download link saves the file as: the signed name (made safe) or our own, with the stored extension. */
export const downloadName = (key: string, name?: string | null) =>
  name ? `${safeFileBase(name)}${path.extname(key)}` : `giftlens-${path.basename(key)}`;

/** RFC 8187's attr-char: what may stand unescaped in `filename*`. */
const encodeRfc8187 = (value: string) =>
  encodeURIComponent(value).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition: attachment` for any file name (RFC 6266): a plain ASCII name as a quoted `filename`; any
 * other with an ASCII stand-in in `filename` (for old clients) and the exact name in `filename*` (UTF-8).
 */
export function attachmentDisposition(fileName: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  if (fallback === fileName) return `${kind}; filename="${fileName}"`;
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(fileName)}`;
}

/** The expiry (unix seconds) of a signed media URL, or null when `exp` is not one. */
export function signedUrlExpiry(exp: string): Date | null {
  return /^\d{1,12}$/.test(exp) ? new Date(Number(exp) * 1000) : null;
}

/**
 * The server's own HMAC-signed, expiring URLs: `/media/<key>?exp=…&sig=…` (every backend: the app's links stay
 * the same whatever stores the bytes), `/media/<key>?exp=…&sig=…&download=1` for a download, signed as one (its own
 * HMAC message: neither signature checks for the other), with `&name=…` the file name it is saved as, signed too, and `/api/uploads/<id>?exp=…&sig=…` (the local PUT target).
 */
export function createMediaUrlSigner(secret: string) {
  // A key holds no ':' and exp is digits, so a name after them cannot be confused with either.
  const sign = (key: string, exp: string, download: boolean, name: string | null = null) =>
    hmacHex(secret, `${download ? 'media-download' : 'media'}:${key}:${exp}${download && name !== null ? `:${name}` : ''}`);
  const signUpload = (id: string, exp: string) => hmacHex(secret, `upload:${id}:${exp}`);
  const validExp = (exp: string, now: Date) => (signedUrlExpiry(exp)?.getTime() ?? -1) >= now.getTime();
  return {
    signedUrl: (key: string, ttlMs: number, now = new Date(), { download = false, name }: SignedUrlOptions = {}): string => {
      const exp = String(Math.floor((now.getTime() + ttlMs) / 1000));
      const named = download && name !== undefined ? safeFileBase(name) : null;
      const tail = download ? `&download=1${named === null ? '' : `&name=${encodeURIComponent(named)}`}` : '';
      return `/media/${key}?exp=${exp}&sig=${sign(key, exp, download, named)}${tail}`;
    },
    verifySignedUrl: (key: string, exp: string, sig: string, now: Date, download: boolean, name: string | null = null): boolean =>
      isValidKey(key) && (download || name === null) && validExp(exp, now) && safeEqual(sign(key, exp, download, name), sig),
    localUploadUrl: (id: string, expiresAt: Date): string => {
      const exp = String(Math.floor(expiresAt.getTime() / 1000));
      return `/api/uploads/${id}?exp=${exp}&sig=${signUpload(id, exp)}`;
    },
    verifyUploadUrl: (id: string, exp: string, sig: string, now: Date): boolean =>
      validExp(exp, now) && safeEqual(signUpload(id, exp), sig),
  };
}

/** Every write below puts a new file in place by a rename: a new inode, so a replaced file has a new version. */
const fileVersion = (s: Stats) => `${s.ino}:${s.mtimeMs}:${s.size}`;

/** Files under DATA_DIR/media, served by GET /media/<key>?exp=…&sig=… (HMAC-signed, expiring). */
export function createLocalMediaStorage(root: string, secret: string): MediaStorage {
  const staging = createStaging(path.join(root, '.tmp'));
  const urls = createMediaUrlSigner(secret);
  const resolve = (key: string) => {
    if (!isValidKey(key)) throw new Error(`Invalid media key: ${key}`);
    return path.join(root, key);
  };
  /**
   * A new temporary name for a file written here before it is renamed to its key: in the staging folder (the same
   * file system), so what a process killed mid-write leaves is a stale part housekeeping removes, never a stray
   * file beside the media.
   */
  async function stagedPart(): Promise<string> {
    await mkdir(staging.dir, { recursive: true });
    return path.join(staging.dir, `${randomHex(12)}.part`);
  }
  /** The file at `key`, checked to be `version` once open (the handle keeps reading that file whatever replaces it). */
  async function openVersion(key: string, version?: string): Promise<FileHandle> {
    const handle = await open(resolve(key), 'r').catch((err: NodeJS.ErrnoException) => {
      // The version asked for is gone altogether (moved by another confirm of the same upload): it changed.
      throw version !== undefined && err.code === 'ENOENT' ? new MediaChangedError(key) : err;
    });
    if (version !== undefined && fileVersion(await handle.stat()) !== version) {
      await handle.close();
      throw new MediaChangedError(key);
    }
    return handle;
  }

  return {
    kind: 'local',
    browserOrigin: null,

    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = await stagedPart();
      await writeFile(tmp, data);
      await rename(tmp, file);
    },

    async receive(source, maxBytes) {
      const { file: tmp, size } = await staging.receive(source, maxBytes);
      return {
        size,
        localFile: tmp,
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
        return s.isFile() ? { size: s.size, version: fileVersion(s) } : null;
      } catch {
        return null;
      }
    },

    async readHead(key, bytes, version) {
      const handle = await openVersion(key, version);
      try {
        const buffer = Buffer.alloc(bytes);
        const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    async openRead(key, version) {
      // Opened before it is handed out: a missing file fails here, not inside the caller's pipeline.
      const handle = await openVersion(key, version);
      return handle.createReadStream();
    },

    check: () => staging.check(),

    removeStaleParts: (olderThanMs, now) => staging.removeStale(olderThanMs, now),

    async putFile(key, localFile) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = await stagedPart();
      // A copy then a rename: the key appears whole or not at all, even across file systems.
      await copyFile(localFile, tmp);
      await rename(tmp, file);
      await rm(localFile, { force: true });
    },

    async delete(key) {
      await rm(resolve(key), { force: true });
    },

    signedUrl: urls.signedUrl,
    verifySignedUrl: urls.verifySignedUrl,

    async source(key) {
      const found = await stat(resolve(key)).catch(() => null);
      return found?.isFile() ? { kind: 'file', root, file: key } : null;
    },

    uploadUrl({ id, expiresAt }) {
      return Promise.resolve(urls.localUploadUrl(id, expiresAt));
    },

    // The server's own PUT target refuses a confirmed upload: the bytes can land on their key directly.
    landingKey: (key) => key,

    async promoteUpload(landingKey, key, version) {
      if (landingKey === key) {
        const current = await stat(resolve(key)).catch(() => null);
        if (!current || fileVersion(current) !== version) throw new MediaChangedError(key);
        return;
      }
      // A hard link, never a rename: it keeps the inode (so the version check below means what it says) and it never
      // replaces a file already at the key (another confirm of the same upload, a double click, put it there first).
      await link(resolve(landingKey), resolve(key)).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ENOENT' || err.code === 'EEXIST' ? new MediaChangedError(key) : err;
      });
      await rm(resolve(landingKey), { force: true });
      const promoted = await stat(resolve(key)).catch(() => null);
      if (!promoted || fileVersion(promoted) !== version) {
        // What was linked is not the checked file (it was replaced before the link): never the message.
        await rm(resolve(key), { force: true });
        throw new MediaChangedError(key);
      }
    },

    verifyUploadUrl: urls.verifyUploadUrl,
  };
}
