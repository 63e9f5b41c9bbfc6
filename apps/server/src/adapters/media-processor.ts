import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface MediaProbe {
  /** ffprobe's format names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  format: string;
  durationSeconds: number | null;
  video: { codec: string; pixelFormat: string | null; width: number; height: number } | null;
  audio: { codec: string } | null;
}

/** The file is not a video or audio ffmpeg can read (corrupt, truncated, or not media at all). */
export class UnreadableMediaError extends Error {
  override name = 'UnreadableMediaError';
}

export interface Rendition {
  /** The MP4 (H.264/AAC) or M4A (AAC), moov atom first. */
  file: string;
  mime: 'video/mp4' | 'audio/mp4';
  /** A JPEG frame of a video, shown before play. */
  poster: string | null;
  probe: MediaProbe;
}

/** Makes a message or reaction play on every phone: H.264/AAC in MP4, or AAC in M4A, with a poster frame. */
export interface MediaProcessor {
  probe(file: string): Promise<MediaProbe>;
  /** Writes `${outBase}.mp4`/`.m4a` (and `${outBase}.jpg` for video) and checks the result; throws on failure. */
  render(input: string, kind: 'video' | 'audio', outBase: string): Promise<Rendition>;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; pix_fmt?: string; width?: number; height?: number }[];
}

/** What plays everywhere: Safari on iPhones plays H.264 (yuv420p) and AAC in MP4, not VP8/VP9/Opus in WebM. */
export function playsEverywhere(p: MediaProbe, kind: 'video' | 'audio'): { video: boolean; audio: boolean } {
  return {
    video: kind === 'audio' || (p.video?.codec === 'h264' && (p.video.pixelFormat === 'yuv420p' || p.video.pixelFormat === 'yuvj420p')),
    audio: p.audio === null || p.audio.codec === 'aac',
  };
}

/** ffmpeg and ffprobe from the PATH (Debian's `ffmpeg` package); null when either is missing. */
export async function createFfmpegProcessor(opts: { timeoutMs?: number } = {}): Promise<MediaProcessor | null> {
  const timeout = opts.timeoutMs ?? 10 * 60_000;
  try {
    await run('ffmpeg', ['-version'], { timeout: 10_000 });
    await run('ffprobe', ['-version'], { timeout: 10_000 });
  } catch {
    return null;
  }

  async function probe(file: string): Promise<MediaProbe> {
    let out: FfprobeOutput;
    try {
      const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
        timeout: 60_000,
        maxBuffer: 4 * 1024 * 1024,
      });
      out = JSON.parse(stdout) as FfprobeOutput;
    } catch (err) {
      throw new UnreadableMediaError(`ffprobe could not read the file: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
    const v = out.streams?.find((s) => s.codec_type === 'video' && s.codec_name !== 'mjpeg' && s.codec_name !== 'png');
    const a = out.streams?.find((s) => s.codec_type === 'audio');
    if (!v && !a) throw new UnreadableMediaError('the file holds no audio or video');
    const duration = Number(out.format?.duration);
    return {
      format: out.format?.format_name ?? '',
      durationSeconds: Number.isFinite(duration) ? duration : null,
      video: v?.codec_name ? { codec: v.codec_name, pixelFormat: v.pix_fmt ?? null, width: v.width ?? 0, height: v.height ?? 0 } : null,
      audio: a?.codec_name ? { codec: a.codec_name } : null,
    };
  }

  async function ffmpeg(args: string[]): Promise<void> {
    try {
      await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], { timeout, maxBuffer: 4 * 1024 * 1024 });
    } catch (err) {
      const detail = err instanceof Error ? (err as Error & { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? err.message : String(err);
      throw new UnreadableMediaError(`ffmpeg could not convert the file: ${detail}`);
    }
  }

  return {
    probe,
    async render(input, kind, outBase) {
      const source = await probe(input);
      const ok = playsEverywhere(source, kind);
      if (kind === 'video' && !source.video) throw new UnreadableMediaError('the video file holds no picture');
      const audioArgs = source.audio ? (ok.audio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2']) : ['-an'];
      let file: string;
      let poster: string | null = null;
      if (kind === 'video') {
        file = `${outBase}.mp4`;
        const videoArgs = ok.video
          ? ['-c:v', 'copy']
          : // Even dimensions, yuv420p and the Main profile: what every phone decodes.
            ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'];
        await ffmpeg(['-i', input, '-map', '0:v:0', '-map', '0:a:0?', ...videoArgs, ...audioArgs, '-movflags', '+faststart', file]);
        poster = `${outBase}.jpg`;
        const at = source.durationSeconds !== null ? Math.min(1, source.durationSeconds / 2) : 0;
        await ffmpeg(['-ss', at.toFixed(2), '-i', file, '-frames:v', '1', '-vf', "scale='min(1280,iw)':-2", '-q:v', '3', poster]);
      } else {
        file = `${outBase}.m4a`;
        await ffmpeg(['-i', input, '-map', '0:a:0', '-vn', ...audioArgs, '-movflags', '+faststart', file]);
      }
      // The rendition is checked before anything relies on it.
      const result = await probe(file);
      const check = playsEverywhere(result, kind);
      if (!check.video || !check.audio || !result.format.includes('mp4') || (kind === 'video' && !result.video)) {
        throw new UnreadableMediaError(`the rendition is not H.264/AAC MP4 (${result.format}, ${result.video?.codec ?? '-'}/${result.audio?.codec ?? '-'})`);
      }
      return { file, mime: kind === 'video' ? 'video/mp4' : 'audio/mp4', poster, probe: result };
    },
  };
}
