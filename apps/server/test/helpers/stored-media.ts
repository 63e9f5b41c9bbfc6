import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Harness } from './harness.ts';

/** Every stored key under `prefix` (a folder such as `reactions/<giftId>`), sorted, on either backend. */
export async function storedKeys(h: Harness, prefix: string): Promise<string[]> {
  if (!h.s3) {
    const entries = await readdir(path.join(h.mediaDir, prefix), { recursive: true, withFileTypes: true }).catch(
      (err: NodeJS.ErrnoException) => {
        // No folder yet: nothing stored under it.
        if (err.code === 'ENOENT') return [];
        throw err;
      },
    );
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(h.mediaDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort();
  }
  const { endpoint, region, bucket, accessKeyId, secretAccessKey, forcePathStyle } = h.s3.settings;
  const client = new S3Client({ endpoint, region, forcePathStyle, credentials: { accessKeyId, secretAccessKey } });
  try {
    const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
    return (res.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

/** A local copy of a stored object (for ffprobe and byte-level checks), in a new temporary folder. */
export async function downloadStored(h: Harness, key: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'giftlens-stored-')), path.basename(key));
  await pipeline(await h.media.openRead(key), createWriteStream(file));
  return file;
}
