import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Files an attacker uploads as a message: text that ffmpeg would follow to other files, and media that
 * would cost minutes of CPU or gigabytes of memory to convert. Each is made here, from nothing in the repository.
 */

/** An ID3v2.4 header declaring a tag of `size` bytes (syncsafe), as an MP3 starts. */
function id3Header(size: number): Buffer {
  const syncsafe = [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
  return Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, ...syncsafe]);
}

/** `body` behind an ID3 tag of 5,000 bytes: the first 4,100 bytes are all tag, so a head-only sniff says MP3. */
export const behindId3 = (body: string) => Buffer.concat([id3Header(5000), Buffer.alloc(5000), Buffer.from(body)]);

/** An HLS playlist whose one segment is a file of the server's. */
export const playlistOf = (target: string) =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nfile://${target}\n#EXT-X-ENDLIST\n`;

/** An ffconcat script naming a file of the server's. */
export const concatOf = (target: string) => `ffconcat version 1.0\nfile '${target}'\n`;

/** An HLS playlist whose segment is a data: URI (the bytes come with it: no file needed, only the protocol). */
export const dataUriPlaylist = () =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\ndata:audio/mpeg;base64,${Buffer.alloc(64).toString('base64')}\n#EXT-X-ENDLIST\n`;

const work = path.join(tmpdir(), `giftlens-hostile-media-${process.pid}`);

/** An ffmpeg-made file, made once per test process. */
function made(name: string, args: string[]): string {
  mkdirSync(work, { recursive: true });
  const out = path.join(work, name);
  if (!existsSync(out)) execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out], { timeout: 120_000 });
  return out;
}

/** A "secret" of the server: a real voice file at a path an attacker guessed. */
export const serverSecretFile = () =>
  made('secret-voice.m4a', ['-f', 'lavfi', '-i', 'sine=frequency=523:duration=3', '-c:a', 'aac']);

/** 15 minutes of one still picture at 1 frame a second: about 100 kB that took ffmpeg minutes to convert. */
export const fifteenMinuteStill = () =>
  readFileSync(made('still-15min.webm', ['-f', 'lavfi', '-i', 'color=c=0x3366aa:size=320x240:rate=1', '-t', '900', '-c:v', 'libvpx', '-b:v', '20k']));

/** One 8192×8192 frame (a few kB of VP8): nearly a gigabyte of ffmpeg's memory once decoded and scaled. */
export const eightKFrame = () =>
  readFileSync(made('frame-8k.webm', ['-f', 'lavfi', '-i', 'color=c=white:size=8192x8192:rate=1', '-frames:v', '1', '-c:v', 'libvpx', '-b:v', '50k']));

/** Two seconds at 120 frames a second. */
export const highFrameRate = () =>
  readFileSync(made('fast-120.webm', ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=120', '-t', '2', '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '200k']));

/**
 * A WebM as a browser's MediaRecorder writes it: no duration in its header (`-live 1`), so only its packets say how
 * long it is. Two seconds at 30 frames a second, with sound.
 */
export const browserWebm = () =>
  readFileSync(
    made('browser-like.webm', [
      '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30',
      '-f', 'lavfi', '-i', 'sine=frequency=440',
      '-t', '2', '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '300k', '-c:a', 'libopus', '-f', 'webm', '-live', '1',
    ]),
  );

/** A real PNG of 16000×16000 pixels (one palette colour): tens of kB that decode to 768 MB of RGB. */
export async function hugePng(): Promise<Buffer> {
  const file = path.join(work, 'huge-16000.png');
  if (existsSync(file)) return readFileSync(file);
  mkdirSync(work, { recursive: true });
  await sharp({ create: { width: 16000, height: 16000, channels: 3, background: '#ffffff' }, limitInputPixels: false })
    .png({ palette: true, colours: 2, compressionLevel: 9 })
    .toFile(file);
  return readFileSync(file);
}

/** A small video whose second video stream is one 7680×4320 picture: ffmpeg would decode that one if asked for it. */
export const hiddenEightKStream = () =>
  readFileSync(
    made('two-streams.mkv', [
      '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10:duration=1',
      '-f', 'lavfi', '-i', 'color=c=white:size=7680x4320:rate=1:duration=1',
      '-map', '0:v', '-map', '1:v', '-c:v:0', 'mpeg4', '-c:v:1', 'mjpeg',
    ]),
  );

/** One second of sound with a 16000×16000 cover picture (a palette PNG of a few kB): a gigabyte once decoded. */
export async function hugeCoverFlac(): Promise<Buffer> {
  const cover = path.join(work, 'huge-cover.png');
  mkdirSync(work, { recursive: true });
  if (!existsSync(cover)) writeFileSync(cover, await hugePng());
  return readFileSync(
    made('huge-cover.flac', [
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-i', cover,
      '-map', '0:a', '-map', '1:v', '-c:a', 'flac', '-c:v', 'copy', '-disposition:v', 'attached_pic',
    ]),
  );
}
