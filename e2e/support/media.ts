import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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
