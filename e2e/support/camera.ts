import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ARTIFACTS_DIR } from './paths.ts';

/**
 * Turns a photo into a Y4M clip for Chromium's fake camera (--use-file-for-fake-video-capture).
 * The clip is padded to 1280x720 so the camera shows the whole photo, as a phone held over the gift would.
 */
export function photoToY4m(photoPath: string): string {
  const dir = join(ARTIFACTS_DIR, 'camera');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${basename(photoPath).replace(/\.[^.]+$/, '')}.y4m`);
  if (!existsSync(out)) {
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-loop',
      '1',
      '-i',
      photoPath,
      '-t',
      '1',
      '-r',
      '30',
      '-vf',
      'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,format=yuv420p',
      '-f',
      'yuv4mpegpipe',
      out,
    ]);
  }
  return out;
}
