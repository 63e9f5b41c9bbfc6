import { basename } from 'node:path';
import { madeByFfmpeg } from './ffmpeg.ts';

/** The fake camera's picture of a photo: letterboxed into 1280x720, as a phone held over the gift would see it. */
export const FAKE_CAMERA_FRAME = 'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2';

/**
 * Turns a photo into a Y4M clip for Chromium's fake camera (--use-file-for-fake-video-capture).
 * The clip is padded to 1280x720 so the camera shows the whole photo, as a phone held over the gift would.
 */
function photoToY4m(photoPath: string): string {
  return madeByFfmpeg('camera', `${basename(photoPath).replace(/\.[^.]+$/, '')}.y4m`, [
    '-loop',
    '1',
    '-i',
    photoPath,
    '-t',
    '1',
    '-r',
    '30',
    '-vf',
    `${FAKE_CAMERA_FRAME},format=yuv420p`,
    '-f',
    'yuv4mpegpipe',
  ]);
}

/**
 * Chromium flags for a camera that sees `photoPath` (both the rear and the front camera: one fake device), with
 * the permission prompt answered yes.
 */
export function fakeCameraArgs(photoPath: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${photoToY4m(photoPath)}`,
  ];
}
