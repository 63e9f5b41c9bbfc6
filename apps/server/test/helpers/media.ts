import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The tests' copy of the shared gift-photos data set (test-fixtures/gift-photos), or GIFT_PHOTOS_DIR. */
export const GIFT_PHOTOS_DIR =
  process.env.GIFT_PHOTOS_DIR ?? path.resolve(here, '../../../../test-fixtures/gift-photos');
export const GIFT_PHOTO_PATH = path.join(GIFT_PHOTOS_DIR, 'covers/reference/001.jpg');
const FIXTURE_MP4 = path.resolve(here, '../fixtures/tiny.mp4');

export const giftPhoto = (): Buffer => readFileSync(GIFT_PHOTO_PATH);

/** A real 16-bit PCM mono WAV: a 440 Hz tone. */
export function tinyWav(seconds = 0.25, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

let video: Buffer | undefined;
/** A real one-second MP4: made with ffmpeg when present, else the committed fixture. */
export function tinyMp4(): Buffer {
  if (video) return video;
  try {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'giftlens-video-')), 'out.mp4');
    execFileSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x120:rate=10',
        '-t',
        '1',
        '-pix_fmt',
        'yuv420p',
        '-y',
        out,
      ],
      { stdio: 'ignore', timeout: 20_000 },
    );
    if (existsSync(out)) video = readFileSync(out);
  } catch {
    // no ffmpeg here
  }
  video ??= readFileSync(FIXTURE_MP4);
  return video;
}

/** Builds a multipart/form-data body for app.inject(). */
export function multipart(
  fields: Record<string, string>,
  files: { name: string; filename: string; type: string; data: Buffer }[],
) {
  const boundary = `----giftlens${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    chunks.push(f.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
