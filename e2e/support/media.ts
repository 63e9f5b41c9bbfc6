import { madeByFfmpeg } from './ffmpeg.ts';

const TONE = (sampleRate: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${sampleRate}`];

/** A clip made once with ffmpeg from a test pattern and a tone. */
const clip = (name: string, pattern: string, encode: string[]): string =>
  madeByFfmpeg('media', name, ['-f', 'lavfi', '-i', pattern, ...encode, '-shortest']);

/** H.264 (yuv420p) and AAC in MP4 with the moov atom first, as phones play it: `length` and extra x264 options. */
const h264Aac = (length: string[], x264: string[] = []) => [
  ...TONE(44100),
  ...length,
  ...['-c:v', 'libx264', ...x264, '-pix_fmt', 'yuv420p'],
  ...['-c:a', 'aac', '-movflags', '+faststart'],
];

/** A real, small H.264/AAC video (2 s test pattern with a tone). */
export const smallVideo = () => clip('message.mp4', 'testsrc=size=320x240:rate=15', h264Aac(['-t', '2']));

/**
 * A real 20 MB H.264/AAC video (under the Premium plan's 30 MB): 50 frames of lossless noise, so it is big on
 * disk and quick for the server to convert.
 */
export const largeVideo = () =>
  clip(
    'message-20mb.mp4',
    'testsrc2=size=640x360:rate=30,noise=alls=80:allf=t+u',
    h264Aac(['-frames:v', '50'], ['-preset', 'ultrafast', '-qp', '0']),
  );

/** What Chrome's MediaRecorder writes: VP9 video and Opus sound in WebM (2 s), which iPhones do not play. */
export const chromeRecording = () =>
  clip('recorded.webm', 'testsrc=size=320x240:rate=15', [
    ...TONE(48000),
    ...['-t', '2', '-c:v', 'libvpx-vp9', '-b:v', '200k', '-c:a', 'libopus'],
  ]);
