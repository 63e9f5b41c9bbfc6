import S3rver from 's3rver';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Settings } from '../../src/adapters/media-storage-s3.ts';

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
