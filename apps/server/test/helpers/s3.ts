import S3rver from 's3rver';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Settings } from '../../src/config.ts';

/** The bucket CORS rule docs/operations.md asks for: the app's origin may PUT uploads and GET media. */
export const bucketCors = (origin: string) => `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>${origin}</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** What of s3rver (a Koa app) the stand-in below reaches: Koa's middleware list and s3rver's object store. */
interface S3rverInternals {
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  store: {
    getMetadata(bucket: string, key: string): Promise<{ etag?: string }>;
    getResourcePath(bucket: string, key: string, resource: string): string;
    putObject(object: { bucket: string; key: string }): Promise<{ size: number; md5: string }>;
  };
}
interface KoaContext {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

const unquote = (etag: string) => etag.replace(/^(W\/)?"|"$/g, '');

/**
 * S3's conditions that s3rver 3.7.1 ignores, as S3 documents them: GET/HEAD with `If-Match` and a copy with
 * `x-amz-copy-source-if-match` answer 412 PreconditionFailed when the object's ETag is another. The media code
 * relies on them to check and promote one version of an upload (decision 020).
 */
function enforcePreconditions(server: S3rver) {
  const internals = server as unknown as S3rverInternals;
  const header = (ctx: KoaContext, name: string) => {
    const value = ctx.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const etagOf = async (objectPath: string) => {
    const [bucket = '', ...key] = objectPath.replace(/^\//, '').split('/').map(decodeURIComponent);
    return internals.store.getMetadata(bucket, key.join('/')).then(
      (m) => (m.etag ? unquote(m.etag) : null),
      () => null,
    );
  };
  internals.middleware.unshift(async (ctx, next) => {
    const copySource = header(ctx, 'x-amz-copy-source');
    const [objectPath, expected] =
      ctx.method === 'PUT' && copySource
        ? [copySource, header(ctx, 'x-amz-copy-source-if-match')]
        : ctx.method === 'GET' || ctx.method === 'HEAD'
          ? [ctx.path, header(ctx, 'if-match')]
          : [ctx.path, undefined];
    if (expected !== undefined && expected !== '*') {
      const actual = await etagOf(objectPath);
      if (actual !== null && actual !== unquote(expected)) {
        ctx.status = 412;
        ctx.type = 'application/xml';
        ctx.body =
          '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code>' +
          '<Message>At least one of the pre-conditions you specified did not hold</Message></Error>';
        return;
      }
    }
    await next();
  });
}

/**
 * S3's read-after-write: a HEAD or GET right after a PUT's 200 sees the whole object. s3rver 3.7.1 answers the PUT
 * once the bytes passed its hash, before its file stream has written them, and reads an object's size from the file:
 * a HEAD at that moment (under load, in CI) found 0 bytes. Its store's put here also waits for the file to hold them.
 */
export function readAfterWrite(server: S3rver): void {
  const { store } = server as unknown as S3rverInternals;
  const put = store.putObject.bind(store);
  store.putObject = async (object) => {
    const written = await put(object);
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    const until = Date.now() + 10_000;
    while ((await stat(file)).size < written.size) {
      if (Date.now() > until) throw new Error(`s3rver did not write ${object.key} (${written.size} bytes) within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return written;
  };
}

export interface S3TestServer {
  settings: S3Settings;
  /** The bucket's folder on disk (s3rver keeps each object as files under it). */
  directory: string;
  stop(): Promise<void>;
}

/** s3rver on a loopback port with one bucket, in its own temporary folder. */
export async function startS3Server(opts: { bucket?: string; corsOrigin?: string } = {}): Promise<S3TestServer> {
  const bucket = opts.bucket ?? 'giftlens-media';
  const directory = await mkdtemp(path.join(tmpdir(), 'giftlens-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: opts.corsOrigin ? [bucketCors(opts.corsOrigin)] : [] }],
  });
  enforcePreconditions(server);
  readAfterWrite(server);
  const { port } = await server.run();
  let stopped = false;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's fixed test credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    directory,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
