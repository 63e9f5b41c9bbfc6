import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { S3Settings } from '../config.ts';
import { createStaging } from './media-staging.ts';
import {
  attachmentDisposition,
  contentTypeOf,
  createMediaUrlSigner,
  downloadName,
  isValidKey,
  MediaChangedError,
  type MediaStorage,
} from './media-storage.ts';

/** S3 allows presigned URLs for at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** What the browser caches a served object for: as long as the local backend's answers. */
const SERVED_CACHE_CONTROL = 'private, max-age=300';

/** Seconds from `now` (the app's clock) until `until`, as S3 takes them: at least 1, at most 7 days. */
function presignSeconds(until: Date, now: Date): number {
  return Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)));
}

const statusOf = (err: unknown) => (err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined);

/** S3's answer to a condition (If-Match, x-amz-copy-source-if-match) that no longer holds: the object changed. */
/** A read or copy of one version: that version replaced (412), or gone altogether (404), is a MediaChangedError. */
async function unlessChanged<T>(key: string, call: () => Promise<T>, versioned = true): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const status = statusOf(err);
    if (status === 412 || (versioned && status === 404)) throw new MediaChangedError(key);
    throw err;
  }
}

/** The origin presigned URLs point at: the endpoint itself (path-style), or the bucket's own host. */
export function s3BrowserOrigin(s: Pick<S3Settings, 'endpoint' | 'bucket' | 'forcePathStyle'>): string {
  const url = new URL(s.endpoint);
  return s.forcePathStyle ? url.origin : `${url.protocol}//${s.bucket}.${url.host}`;
}

/**
 * Media in a bucket. The browser PUTs a message straight to a presigned URL and reads media through a presigned
 * GET (GET /media/<key> checks our own signature, then redirects); what the server writes itself (reference
 * photos, renditions, reactions) it uploads, after staging received bytes in a local folder.
 */
export function createS3MediaStorage(
  settings: S3Settings,
  opts: { secret: string; stagingDir: string },
): MediaStorage & { close(): void } {
  // The SDK warns at the first client of every process that its releases after January 2027 need Node 22
  // (aws-sdk-js-v3#7983). We pin 3.1163.0 on Node 20 (decision 003), so the warning says nothing to act on; this is
  // the SDK's documented switch, and an operator's own value wins.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // A presigned PUT must not carry a checksum of an empty body (the SDK's default adds one), and not every
    // S3-compatible service speaks the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // A store that accepts the connection and then says nothing fails the attempt after 10 s without a byte either
    // way (socketTimeout: inactivity, so a large file still streams), not minutes later: three attempts stay under a
    // minute, and the caller answers 503 (plugins/errors.ts). requestTimeout only warns in this SDK version.
    requestHandler: { connectionTimeout: 5000, socketTimeout: 10_000 },
  });
  const Bucket = settings.bucket;
  const staging = createStaging(opts.stagingDir);
  const urls = createMediaUrlSigner(opts.secret);
  const valid = (key: string) => {
    if (!isValidKey(key)) throw new Error(`Invalid media key: ${key}`);
    return key;
  };

  async function putFile(key: string, localFile: string) {
    const { size } = await stat(localFile);
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key: valid(key),
        Body: createReadStream(localFile),
        ContentLength: size,
        ContentType: contentTypeOf(key),
      }),
    );
    await rm(localFile, { force: true });
  }

  const landingKey = (key: string) => `incoming/${valid(key)}`;

  async function get(key: string, range?: string, version?: string): Promise<Readable> {
    const command = new GetObjectCommand({ Bucket, Key: valid(key), Range: range, IfMatch: version });
    const res = await unlessChanged(key, () => client.send(command), version !== undefined);
    if (!(res.Body instanceof Readable)) throw new Error(`S3 answered GET ${key} without a body stream`);
    return res.Body;
  }

  return {
    kind: 's3',
    browserOrigin: s3BrowserOrigin(settings),

    async put(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: valid(key), Body: data, ContentType: contentTypeOf(key) }));
    },

    async receive(source, maxBytes) {
      const { file, size } = await staging.receive(source, maxBytes);
      return {
        size,
        localFile: file,
        commit: (key) => putFile(key, file),
        discard: () => rm(file, { force: true }),
      };
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: valid(key) }));
        return { size: head.ContentLength ?? 0, version: head.ETag ?? '' };
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw err;
      }
    },

    async readHead(key, bytes, version) {
      if (bytes <= 0) return Buffer.alloc(0);
      let body: Readable;
      try {
        body = await get(key, `bytes=0-${bytes - 1}`, version);
      } catch (err) {
        // An empty object has no byte 0.
        if (statusOf(err) === 416) return Buffer.alloc(0);
        throw err;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).subarray(0, bytes);
    },

    openRead: (key, version) => get(key, undefined, version),

    async delete(key) {
      // Deleting a key that is not there succeeds: a retried media.delete job is harmless.
      await client.send(new DeleteObjectCommand({ Bucket, Key: valid(key) }));
    },

    async check() {
      await staging.check();
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    removeStaleParts: (olderThanMs, now) => staging.removeStale(olderThanMs, now),

    putFile,

    signedUrl: urls.signedUrl,
    verifySignedUrl: urls.verifySignedUrl,

    async source(key, { download, name, expiresAt, now }) {
      const command = new GetObjectCommand({
        Bucket,
        Key: valid(key),
        // Served as what the key says, whatever type the uploader sent.
        ResponseContentType: contentTypeOf(key),
        ResponseCacheControl: SERVED_CACHE_CONTROL,
        ...(download ? { ResponseContentDisposition: attachmentDisposition(downloadName(key, name)) } : {}),
      });
      return { kind: 'url', url: await getSignedUrl(client, command, { expiresIn: presignSeconds(expiresAt, now) }) };
    },

    async uploadUrl({ key, expiresAt, now }) {
      return getSignedUrl(client, new PutObjectCommand({ Bucket, Key: landingKey(key) }), {
        expiresIn: presignSeconds(expiresAt, now),
      });
    },

    // A presigned PUT works again until it expires: the browser's bytes land under incoming/, and only a copy
    // made after the checks becomes the message.
    landingKey,

    // Only the version confirm checked is copied: a PUT that replaced it meanwhile makes S3 refuse the copy (412).
    async promoteUpload(from, key, version) {
      const copy = new CopyObjectCommand({
        Bucket,
        Key: valid(key),
        CopySource: `${Bucket}/${valid(from)}`,
        CopySourceIfMatch: version,
        ContentType: contentTypeOf(key),
        MetadataDirective: 'REPLACE',
      });
      await unlessChanged(from, () => client.send(copy));
      await client.send(new DeleteObjectCommand({ Bucket, Key: from }));
    },

    // The browser uploads to the bucket: the server's own PUT target takes nothing.
    verifyUploadUrl: () => false,

    close: () => client.destroy(),
  };
}
