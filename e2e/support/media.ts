import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from './paths.ts';

/** A real, small H.264/AAC video (2 s test pattern with a tone), made once per run with ffmpeg. */
export function smallVideo(): string {
  const dir = join(ARTIFACTS_DIR, 'media');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'message.mp4');
  if (!existsSync(out)) {
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      out,
    ]);
  }
  return out;
}

/**
 * A real 20 MB H.264/AAC video (under the Premium plan's 30 MB): 50 frames of lossless noise, so it is big on
 * disk and quick for the server to convert. Made once per run with ffmpeg.
 */
export function largeVideo(): string {
  const dir = join(ARTIFACTS_DIR, 'media');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'message-20mb.mp4');
  if (!existsSync(out)) {
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=30,noise=alls=80:allf=t+u',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-frames:v',
      '50',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-qp',
      '0',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      `${out}.tmp.mp4`,
    ]);
    renameSync(`${out}.tmp.mp4`, out);
  }
  return out;
}

/** What Chrome's MediaRecorder writes: VP9 video and Opus sound in WebM (2 s), which iPhones do not play. */
export function chromeRecording(): string {
  const dir = join(ARTIFACTS_DIR, 'media');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'recorded.webm');
  if (!existsSync(out)) {
    const tmp = `${out}.part.webm`;
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      '2',
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '200k',
      '-c:a',
      'libopus',
      '-shortest',
      tmp,
    ]);
    renameSync(tmp, out);
  }
  return out;
}
