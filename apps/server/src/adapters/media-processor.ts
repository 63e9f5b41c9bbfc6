import { IMAGE_MAX_PIXELS, MEDIA_LIMITS } from '@giftlens/contract/constants';
import { execFile } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import which from 'which';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from '../config.ts';
import {
  COMBINED_JOIN_OPTIONS,
  COMBINED_SEGMENT_OPTIONS,
  combinedFilterGraph,
  layoutCard,
  TEXT_SIZES,
  textCardSeconds,
  TITLE_CARD_SECONDS,
  TITLE_SIZES,
  type CardText,
  type PreparedSegment,
} from './combined-recipe.ts';
import { MP4_FORMAT, type StoredFormat } from './media-formats.ts';
import { cardFaces, type CardFace } from '../lib/shipped-fonts.ts';
import { cardAssScript } from './card-ass.ts';

const run = promisify(execFile);

export interface MediaProbe {
  /** ffprobe's format names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  format: string;
  /** From the container, or (a browser's WebM states none) the last packet's end. */
  durationSeconds: number | null;
  video: {
    /** The stream's index in the file: the one a render converts (`-map 0:<index>`). */
    index: number;
    codec: string;
    pixelFormat: string | null;
    width: number;
    height: number;
    /** Video packets over the duration: what the file really holds, whatever its header claims. */
    framesPerSecond: number | null;
    frames: number;
  } | null;
  audio: { index: number; codec: string } | null;
  /** The largest frame of any moving-picture stream (another angle too): ffmpeg may decode any of them. */
  largestPicture: { width: number; height: number };
  /** The largest cover picture (an album's art in an M4A or MP3), which ffprobe decodes. */
  largestCover: { width: number; height: number };
}

/** The file is not a video or audio ffmpeg can read as its sniffed type (corrupt, truncated, or not media at all). */
export class UnreadableMediaError extends Error {
  override name = 'UnreadableMediaError';
}

/** ffmpeg hit its CPU-time or memory limit: the file costs far more to convert than its size and length say. */
export class MediaTooCostlyError extends Error {
  override name = 'MediaTooCostlyError';
}

/** Every probe slot of this process is taken and its queue is full: try again in a moment (503). */
export class MediaBusyError extends Error {
  override name = 'MediaBusyError';
}

/**
 * ffprobe or ffmpeg did not finish on its own: stopped by a signal (a process manager's SIGTERM, the OOM killer), its
 * wall-clock timeout, or the job's abort. Says nothing about the file: the work is tried again.
 */
export class MediaInterruptedError extends Error {
  override name = 'MediaInterruptedError';
}

export interface Rendition {
  /** The MP4 (H.264/AAC) or M4A (AAC), moov atom first. */
  file: string;
  mime: 'video/mp4' | 'audio/mp4';
  /** A JPEG frame of a video, shown before play. */
  poster: string | null;
  probe: MediaProbe;
}

/** One part of a group gift's combined MP4, in the order the recipient sees them. */
export interface CombinedPart {
  /** The title card before this part, e.g. "From Asha" (the organizer's own part: "From {sender name}"). */
  title: string;
  kind: 'video' | 'audio' | 'text';
  /** A local file: the part's rendition (MP4 H.264/AAC for video, M4A AAC for audio) as the existing render() makes them; absent for text. */
  file?: string;
  /** The text of a text part (up to 2000 characters), shown as a card for a few seconds scaled to its length. */
  text?: string;
}

/** Makes a message or reaction play on every phone: H.264/AAC in MP4, or AAC in M4A, with a poster frame. */
export interface MediaProcessor {
  /** Reads `file` as `format` only (its sniffed type); throws UnreadableMediaError when it is not that. */
  probe(file: string, format: StoredFormat, signal?: AbortSignal): Promise<MediaProbe>;
  /** Writes `${outBase}.mp4`/`.m4a` (and `${outBase}.jpg` for video) and checks the result; throws on failure. */
  render(input: string, format: StoredFormat, kind: 'video' | 'audio', outBase: string, signal?: AbortSignal): Promise<Rendition>;
  /**
   * Writes one MP4 of `parts` to `outFile` (decision 049): a title card before each, every video scaled and padded to
   * 1280×720 at 30 fps, a voice message over a card with its title, a text message as a card, each part's loudness
   * evened; one ffmpeg run per part, each within the render limits, then one that joins them. Its scratch (the cards'
   * text files, the segments) is a folder beside `outFile`, removed after. Throws UnreadableMediaError when a part's
   * file is not the rendition its kind says.
   */
  renderCombined(parts: CombinedPart[], outFile: string, signal?: AbortSignal): Promise<{ file: string; mime: 'video/mp4'; durationS: number }>;
  /** How ffmpeg is confined: its limits, and whether it dies with this process. */
  readonly confinement: Confinement;
}

/**
 * A probe at confirm only demuxes (and decodes a picture or two to learn the streams): far tighter bounds than a
 * render's. A 1 MB FLAC with a 16000×16000 cover once took ffprobe to 1 GB.
 */
export const PROBE_LIMITS: RenderLimits = { cpuSeconds: 30, memoryBytes: 512 * 1024 * 1024, timeoutMs: 60_000 };
/** Probes one process runs at once; up to PROBE_QUEUE more wait, beyond that a confirm is told to come back (503). */
export const PROBE_SLOTS = 2;
const PROBE_QUEUE = 16;

export interface Confinement {
  limits: RenderLimits;
  /** `setpriv --pdeathsig KILL` and `prlimit` (util-linux) wrap every run; false where they are missing. */
  confined: boolean;
}

/** What a probe finds against MEDIA_LIMITS: the first limit passed, or null. */
export type MediaLimitBreach =
  | { limit: 'duration'; seconds: number }
  | { limit: 'frame'; width: number; height: number }
  | { limit: 'rate'; framesPerSecond: number };

/** The long side of a converted video: a phone's screen (a 4K upload is converted to 1080p). */
export const RENDITION_LONG_SIDE = 1920;

/** A little slack over 60 for containers whose timestamps round (59.94 and 60.0x are 60). */
const FPS_SLACK = 0.5;

export function mediaLimitBreach(p: MediaProbe): MediaLimitBreach | null {
  const { maxSeconds, maxLongSide, maxShortSide, maxFramesPerSecond } = MEDIA_LIMITS;
  if (p.durationSeconds !== null && p.durationSeconds > maxSeconds + 0.5) return { limit: 'duration', seconds: p.durationSeconds };
  // Every picture in the file, not only the one converted: ffmpeg may decode any of them. A cover picture is a photo:
  // the photos' own limit.
  const { width, height } = p.largestPicture;
  if (Math.max(width, height) > maxLongSide || Math.min(width, height) > maxShortSide) return { limit: 'frame', width, height };
  if (p.largestCover.width * p.largestCover.height > IMAGE_MAX_PIXELS) return { limit: 'frame', ...p.largestCover };
  if (p.video) {
    if (p.video.framesPerSecond !== null && p.video.framesPerSecond > maxFramesPerSecond + FPS_SLACK) {
      return { limit: 'rate', framesPerSecond: p.video.framesPerSecond };
    }
    // Timestamps squeezed together: more pictures than ten minutes at 60 a second, whatever the clock says.
    if (p.video.frames > maxSeconds * maxFramesPerSecond * 1.01) return { limit: 'duration', seconds: p.video.frames / maxFramesPerSecond };
  }
  return null;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: {
    index?: number;
    codec_type?: string;
    codec_name?: string;
    pix_fmt?: string;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }[];
  packets?: { stream_index?: number; pts_time?: string; duration_time?: string }[];
}

/** What plays everywhere: Safari on iPhones plays H.264 (yuv420p) and AAC in MP4, not VP8/VP9/Opus in WebM. */
export function playsEverywhere(p: MediaProbe, kind: 'video' | 'audio'): { video: boolean; audio: boolean } {
  return {
    video: kind === 'audio' || (p.video?.codec === 'h264' && (p.video.pixelFormat === 'yuv420p' || p.video.pixelFormat === 'yuvj420p')),
    audio: p.audio === null || p.audio.codec === 'aac',
  };
}

/**
 * Demuxers that open other files or URLs named inside the input. `-f` pins the demuxer, so none of these can be
 * chosen; a probe that names one anyway is refused.
 */
const REFERENCING_DEMUXERS = /(^|,)(hls|applehttp|concat|ffconcat|image2|image2pipe|subfile|data|playlist|m3u8?|dash|imf|mpl2|tee)(,|$)/;

/**
 * The options every input is opened with: only as `format`, and only from a local file (no http, data:, subfile:,
 * concat: or pipe: protocols, which is all a nested reference could use).
 */
const inputOptions = (format: StoredFormat) => ['-f', format.demuxer, '-protocol_whitelist', 'file'];
/** `file:` so a name is never read as a protocol or an image pattern. */
const inputPath = (file: string) => `file:${file}`;

/**
 * ffmpeg catches SIGTERM and SIGXCPU itself, exits 255, and says so on its own last line. Only that line counts,
 * anchored whole (`-loglevel repeat+level`): an input's metadata, which ffmpeg prints too, cannot forge it.
 */
const EXIT_LINE = /^\[info\] Exiting normally, received signal (\d+)\.$/gm;
const caughtSignal = (e: { code?: string | number; stderr?: string }) =>
  e.code === 255 ? [...(e.stderr ?? '').matchAll(EXIT_LINE)].at(-1)?.[1] : undefined;
/** An error of ffmpeg's own, by its level tag at the start of the line (optionally after its component). */
const ERROR_LINE = /^(?:\[[^\]\n]+ @ 0x[0-9a-f]+\] )?\[(?:error|fatal|panic)\] (.*)$/gm;
const errorLines = (stderr: string | undefined) => [...(stderr ?? '').matchAll(ERROR_LINE)].map((m) => m[1] ?? '');
const SIGXCPU = String(constants.signals.SIGXCPU);
const signalName = (n: number) => Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;

/** Sorts a failed run: the file's fault (permanent), too costly (permanent), or interrupted (tried again). */
function failure(tool: 'ffprobe' | 'ffmpeg', err: unknown): Error {
  const e = err as Error & { code?: string | number; signal?: NodeJS.Signals | null; killed?: boolean; stderr?: string };
  const caught = caughtSignal(e);
  // 123: "Received > 3 system signals, hard exiting": SIGXCPU once a second past the soft limit.
  if (e.signal === 'SIGXCPU' || caught === SIGXCPU || e.code === 123) return new MediaTooCostlyError(`${tool} reached its CPU-time limit`);
  if (e.name === 'AbortError' || e.code === 'ABORT_ERR') return new MediaInterruptedError(`${tool} stopped: the job was stopped`);
  if (e.killed) return new MediaInterruptedError(`${tool} stopped: it ran past its time limit`);
  if (e.signal) return new MediaInterruptedError(`${tool} was stopped by ${e.signal}`);
  if (caught) return new MediaInterruptedError(`${tool} was stopped by ${signalName(Number(caught))}`);
  if (typeof e.code === 'string') return new MediaInterruptedError(`${tool} could not be started (${e.code})`);
  const errors = errorLines(e.stderr);
  if (errors.some((l) => /Cannot allocate memory|out of memory/i.test(l))) return new MediaTooCostlyError(`${tool} reached its memory limit`);
  return new UnreadableMediaError(`${tool} could not read the file: ${(errors.at(-1) ?? `exit ${String(e.code)}`).slice(0, 300)}`);
}

/** The fonts the combined MP4's cards are drawn in: files fontconfig named. */
export interface CardFonts {
  regular: string | null;
  bold: string | null;
}

/**
 * DejaVu Sans (Debian's fonts-dejavu-core, which ffmpeg's package pulls in) through fontconfig, or whatever sans
 * fontconfig offers in its place; null for a weight it names no readable file for. A machine without fontconfig or
 * any font gets cards without text rather than no combined video (decision 049).
 */
export async function findCardFonts(): Promise<CardFonts> {
  const match = async (pattern: string) => {
    try {
      const { stdout } = await run('fc-match', ['--format=%{file}', pattern], { timeout: 10_000 });
      const file = stdout.trim();
      if (!file) return null;
      accessSync(file, fsConstants.R_OK);
      return file;
    } catch {
      return null;
    }
  };
  return { regular: await match('DejaVu Sans:style=Book'), bold: await match('DejaVu Sans:style=Bold') };
}

/** The tools a render runs, each an absolute path found once at start-up (null: not installed). */
export interface MediaTools {
  ffmpeg: string | null;
  ffprobe: string | null;
  setpriv: string | null;
  prlimit: string | null;
}

/**
 * Finds each tool once, as an absolute path, on the PATH without the `node_modules/.bin` folders npm puts first when
 * it runs a script (issue 37): a package's executable named ffmpeg in any parent folder must never be what runs.
 */
export function findMediaTools(pathValue = process.env.PATH ?? ''): MediaTools {
  const searched = pathValue
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir) && !dir.split(path.sep).includes('node_modules'))
    .join(path.delimiter);
  const find = (tool: string) => which.sync(tool, { path: searched, nothrow: true });
  return { ffmpeg: find('ffmpeg'), ffprobe: find('ffprobe'), setpriv: find('setpriv'), prlimit: find('prlimit') };
}

/** Whether `setpriv --pdeathsig` and `prlimit` (util-linux) can wrap a command here. */
async function canConfine(tools: MediaTools): Promise<boolean> {
  if (!tools.setpriv || !tools.prlimit) return false;
  try {
    await run(tools.setpriv, ['--pdeathsig', 'KILL', '--', tools.prlimit, '--cpu=5:10', '--', 'true'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * ffmpeg and ffprobe from the PATH (Debian's `ffmpeg` package); null when either is missing. Every run is wrapped in
 * `setpriv --pdeathsig KILL` (it dies with the process that started it, even after kill -9) and `prlimit` (CPU time
 * and memory), both exec'd in place, so the process Node waits for is ffmpeg itself.
 */
export async function createFfmpegProcessor(
  opts: {
    limits?: Partial<RenderLimits>;
    /** The combined MP4's card fonts; null: cards without text (as where fontconfig finds none). Default: fontconfig's. */
    cardFonts?: CardFonts | null;
    /** The tools' absolute paths; default: found once on the PATH (findMediaTools). */
    tools?: MediaTools;
  } = {},
): Promise<MediaProcessor | null> {
  const limits: RenderLimits = { ...DEFAULT_RENDER_LIMITS, ...opts.limits };
  const tools = opts.tools ?? findMediaTools();
  const paths = { ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe };
  if (!paths.ffmpeg || !paths.ffprobe) return null;
  try {
    await run(paths.ffmpeg, ['-version'], { timeout: 10_000 });
    await run(paths.ffprobe, ['-version'], { timeout: 10_000 });
  } catch {
    return null;
  }
  const confined = await canConfine(tools);
  const found = { ffmpeg: paths.ffmpeg, ffprobe: paths.ffprobe };

  function command(tool: 'ffmpeg' | 'ffprobe', args: string[], bounds: RenderLimits): [string, string[]] {
    if (!confined || !tools.setpriv || !tools.prlimit) return [found[tool], args];
    return [
      tools.setpriv,
      ['--pdeathsig', 'KILL', '--', tools.prlimit, `--cpu=${bounds.cpuSeconds}:${bounds.cpuSeconds + 5}`, `--data=${bounds.memoryBytes}`, '--', found[tool], ...args],
    ];
  }

  async function runTool(
    tool: 'ffmpeg' | 'ffprobe',
    args: string[],
    opts: { signal: AbortSignal | undefined; maxBuffer: number; bounds: RenderLimits },
  ): Promise<string> {
    const [file, argv] = command(tool, args, opts.bounds);
    try {
      const { stdout } = await run(file, argv, { timeout: opts.bounds.timeoutMs, maxBuffer: opts.maxBuffer, signal: opts.signal, killSignal: 'SIGKILL' });
      return stdout;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
        throw new UnreadableMediaError(`${tool} said more about the file than any message has (too many packets)`);
      }
      throw failure(tool, err);
    }
  }

  async function probe(file: string, format: StoredFormat, signal: AbortSignal | undefined, bounds: RenderLimits): Promise<MediaProbe> {
    // One pass over the whole file: the streams, and every packet's time, so the length and frame rate are what the
    // file holds (a browser's WebM states no duration; a header may lie). Demuxing only: no decoding.
    const stdout = await runTool(
      'ffprobe',
      [
        '-loglevel', 'repeat+level+error',
        ...inputOptions(format),
        '-show_entries', 'format=format_name,duration:stream=index,codec_type,codec_name,pix_fmt,width,height:stream_disposition=attached_pic:packet=stream_index,pts_time,duration_time',
        '-of', 'json',
        inputPath(file),
      ],
      // About 70 bytes a packet: ten minutes of 60 frames and 50 audio packets a second is under 3 MB.
      { signal, maxBuffer: 64 * 1024 * 1024, bounds },
    );
    let out: FfprobeOutput;
    try {
      out = JSON.parse(stdout) as FfprobeOutput;
    } catch {
      throw new UnreadableMediaError('ffprobe gave no readable answer');
    }
    const formatName = out.format?.format_name ?? '';
    if (REFERENCING_DEMUXERS.test(formatName) || formatName !== format.formatName) {
      throw new UnreadableMediaError(`the file opened as "${formatName}", not as ${format.formatName}`);
    }
    const pictures = (out.streams ?? []).filter((s) => s.codec_type === 'video');
    // The first moving picture (a cover picture is not one) and the first sound: the two a render converts.
    const v = pictures.find((s) => s.disposition?.attached_pic !== 1);
    const a = out.streams?.find((s) => s.codec_type === 'audio');
    if (!v && !a) throw new UnreadableMediaError('the file holds no audio or video');
    const largest = (streams: typeof pictures) => {
      const big = { width: 0, height: 0 };
      for (const { width = 0, height = 0 } of streams) if (width * height > big.width * big.height) Object.assign(big, { width, height });
      return big;
    };
    const largestPicture = largest(pictures.filter((s) => s.disposition?.attached_pic !== 1));
    const largestCover = largest(pictures.filter((s) => s.disposition?.attached_pic === 1));

    const packets = out.packets ?? [];
    let end = 0;
    let first = Infinity;
    let videoPackets = 0;
    for (const p of packets) {
      if (p.stream_index !== v?.index && p.stream_index !== a?.index) continue;
      if (p.stream_index === v?.index) videoPackets++;
      const at = Number(p.pts_time);
      if (!Number.isFinite(at)) continue;
      first = Math.min(first, at);
      end = Math.max(end, at + (Number(p.duration_time) || 0));
    }
    const stated = Number(out.format?.duration);
    const measured = Number.isFinite(first) ? end - first : null;
    const durationSeconds = measured !== null && measured > 0 ? Math.max(measured, Number.isFinite(stated) ? stated : 0) : Number.isFinite(stated) ? stated : null;
    return {
      format: formatName,
      durationSeconds,
      largestPicture,
      largestCover,
      video: v?.codec_name
        ? {
            index: v.index ?? 0,
            codec: v.codec_name,
            pixelFormat: v.pix_fmt ?? null,
            width: v.width ?? 0,
            height: v.height ?? 0,
            frames: videoPackets,
            framesPerSecond: durationSeconds && videoPackets > 1 ? videoPackets / durationSeconds : null,
          }
        : null,
      audio: a?.codec_name ? { index: a.index ?? 0, codec: a.codec_name } : null,
    };
  }

  const ffmpeg = (args: string[], signal?: AbortSignal) =>
    runTool('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'repeat+level+info', '-y', ...args], {
      signal,
      maxBuffer: 16 * 1024 * 1024,
      bounds: limits,
    });

  // Probes at confirm wait for one of PROBE_SLOTS; a full queue is refused rather than piled up.
  let probing = 0;
  const waiting: (() => void)[] = [];
  async function inSlot<T>(work: () => Promise<T>): Promise<T> {
    if (probing >= PROBE_SLOTS) {
      if (waiting.length >= PROBE_QUEUE) throw new MediaBusyError('every probe slot is taken');
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    probing++;
    try {
      return await work();
    } finally {
      probing--;
      waiting.shift()?.();
    }
  }

  let fonts: Promise<CardFonts | null> | undefined = opts.cardFonts === undefined ? undefined : Promise.resolve(opts.cardFonts);

  /**
   * Decision 049: each part (its title card, then the part) is encoded as a segment of its own, one ffmpeg run each
   * with one input, and the segments are joined with the concat demuxer (picture copied, sound encoded once). One run over every part (one
   * filter graph, a concat filter) holds every input's decoder to the end: 10 one-minute 1080p parts took it past
   * the 2 GB memory limit, and 50 (Lifetime) would need several times that. Each run here is bounded by one part.
   */
  async function renderCombined(parts: CombinedPart[], outFile: string, signal?: AbortSignal) {
    if (!parts.length) throw new Error('renderCombined: no parts');
    if (signal?.aborted) throw new MediaInterruptedError('ffmpeg stopped: the job was stopped');
    fonts ??= findCardFonts();
    const font = await fonts;
    const work = await mkdtemp(path.join(path.dirname(outFile), '.combined-'));
    try {
      let written = 0;
      // Every text drawn is a file of its own: nothing typed is ever inside the filter graph.
      const cardText = async (text: string, sizes: readonly number[], weight: 'regular' | 'bold', seconds: number): Promise<CardText | null> => {
        const fontFile = font?.[weight];
        if (!fontFile) return null;
        const layout = layoutCard(text, sizes, weight);
        if (!layout.text) return null;
        const textFile = path.join(work, `card-${written++}.txt`);
        await writeFile(textFile, layout.text, 'utf8');
        // Issue 40: libass with the shipped fonts draws every script, shaped; drawtext stays where they cannot load.
        const shipped = await shippedFonts();
        if (!shipped) return { textFile, fontFile, fontSize: layout.fontSize };
        const assFile = `${textFile.slice(0, -4)}.ass`;
        await writeFile(assFile, cardAssScript(layout, seconds, weight === 'bold', shipped.faces[weight === 'bold' ? 700 : 400]), 'utf8');
        return { textFile, fontFile, fontSize: layout.fontSize, ass: { file: assFile, fontsDir: shipped.dir } };
      };
      /** The shipped faces of both weights, copied once per render into a folder of its own (libass's `fontsdir`). */
      let shippedOnce: Promise<{ dir: string; faces: Record<400 | 700, CardFace[]> } | null> | undefined;
      const shippedFonts = () =>
        (shippedOnce ??= (async () => {
          try {
            const faces = { 400: cardFaces(400), 700: cardFaces(700) };
            const dir = path.join(work, 'fonts');
            await mkdir(dir);
            for (const face of [...faces[400], ...faces[700]]) await copyFile(face.file, path.join(dir, path.basename(face.file)));
            return { dir, faces };
          } catch {
            return null;
          }
        })());
      // Every part is checked before the first is encoded: a bad file fails the render at once.
      const plans: { input: string | null; segments: PreparedSegment[] }[] = [];
      for (const part of parts) {
        const title = await cardText(part.title, TITLE_SIZES, 'bold', TITLE_CARD_SECONDS);
        const card: PreparedSegment = { kind: 'card', seconds: TITLE_CARD_SECONDS, text: title };
        if (part.kind === 'text') {
          const text = part.text ?? '';
          plans.push({ input: null, segments: [card, { kind: 'card', seconds: textCardSeconds(text), text: await cardText(text, TEXT_SIZES, 'regular', textCardSeconds(text)) }] });
          continue;
        }
        if (!part.file) throw new UnreadableMediaError(`the ${part.kind} part "${part.title}" names no file`);
        const found = await probe(part.file, MP4_FORMAT, signal, limits);
        const seconds = Math.min(found.durationSeconds ?? 0, MEDIA_LIMITS.maxSeconds);
        if (!(seconds > 0)) throw new UnreadableMediaError(`the ${part.kind} part "${part.title}" has no length`);
        if (part.kind === 'video') {
          if (!found.video) throw new UnreadableMediaError(`the video part "${part.title}" holds no picture`);
          plans.push({ input: part.file, segments: [card, { kind: 'video', input: 0, videoStream: found.video.index, audioStream: found.audio?.index ?? null, seconds }] });
        } else {
          if (!found.audio) throw new UnreadableMediaError(`the voice part "${part.title}" holds no sound`);
          plans.push({ input: part.file, segments: [card, { kind: 'audio', input: 0, audioStream: found.audio.index, seconds, text: title }] });
        }
      }
      const names: string[] = [];
      for (const [i, plan] of plans.entries()) {
        const name = `segment-${i}.mov`;
        const opened = plan.input === null ? [] : [...inputOptions(MP4_FORMAT), '-i', inputPath(plan.input)];
        await ffmpeg([...opened, '-filter_complex', combinedFilterGraph(plan.segments), ...COMBINED_SEGMENT_OPTIONS, inputPath(path.join(work, name))], signal);
        names.push(name);
      }
      // The list names our own segments, by plain names beside it (the concat demuxer's safe mode), as local files only.
      const list = path.join(work, 'segments.txt');
      await writeFile(list, names.map((n) => `file '${n}'\n`).join(''), 'utf8');
      await ffmpeg(['-f', 'concat', '-safe', '1', '-protocol_whitelist', 'file', '-i', inputPath(list), ...COMBINED_JOIN_OPTIONS, inputPath(outFile)], signal);
      const result = await probe(outFile, MP4_FORMAT, signal, limits);
      if (!result.video || !playsEverywhere(result, 'video').video || result.audio?.codec !== 'aac' || result.durationSeconds === null) {
        throw new UnreadableMediaError(`the combined file is not H.264/AAC MP4 (${result.format}, ${result.video?.codec ?? '-'}/${result.audio?.codec ?? '-'})`);
      }
      return { file: outFile, mime: 'video/mp4' as const, durationS: result.durationSeconds };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  return {
    confinement: { limits, confined },
    renderCombined,
    probe: (file, format, signal) => inSlot(() => probe(file, format, signal, { ...PROBE_LIMITS, memoryBytes: Math.min(PROBE_LIMITS.memoryBytes, limits.memoryBytes) })),
    async render(input, format, kind, outBase, signal) {
      // Within the render's own lane and bounds: the whole file may take longer to demux than a probe at confirm.
      const source = await probe(input, format, signal, limits);
      const breach = mediaLimitBreach(source);
      if (breach) throw new UnreadableMediaError(`the file is over the limits (${breach.limit})`);
      const ok = playsEverywhere(source, kind);
      if (kind === 'video' && !source.video) throw new UnreadableMediaError('the video file holds no picture');
      const audioArgs = source.audio ? (ok.audio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2']) : ['-an'];
      // Never more than the longest message, whatever the timestamps say.
      const cap = ['-t', String(MEDIA_LIMITS.maxSeconds)];
      let file: string;
      let poster: string | null = null;
      if (kind === 'video') {
        file = `${outBase}.mp4`;
        const videoArgs = ok.video
          ? ['-c:v', 'copy']
          : // Even dimensions, yuv420p and the Main profile: what every phone decodes; at most 1920 on the long side
            // (a phone's screen), which also halves the largest accepted render's CPU time (decision 038).
            ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-vf', `scale='trunc(min(1,${RENDITION_LONG_SIDE}/max(iw,ih))*iw/2)*2':-2`];
        // The streams the probe measured, by index: never another stream the file also holds.
        const maps = ['-map', `0:${source.video?.index ?? 0}`, ...(source.audio ? ['-map', `0:${source.audio.index}`] : [])];
        await ffmpeg([...inputOptions(format), '-i', inputPath(input), ...cap, ...maps, ...videoArgs, ...audioArgs, '-movflags', '+faststart', file], signal);
        poster = `${outBase}.jpg`;
        const at = source.durationSeconds !== null ? Math.min(1, source.durationSeconds / 2) : 0;
        await ffmpeg(['-ss', at.toFixed(2), ...inputOptions(MP4_FORMAT), '-i', inputPath(file), '-frames:v', '1', '-vf', "scale='min(1280,iw)':-2", '-q:v', '3', poster], signal);
      } else {
        file = `${outBase}.m4a`;
        if (!source.audio) throw new UnreadableMediaError('the voice message holds no sound');
        await ffmpeg([...inputOptions(format), '-i', inputPath(input), ...cap, '-map', `0:${source.audio.index}`, '-vn', ...audioArgs, '-movflags', '+faststart', file], signal);
      }
      // The rendition is checked before anything relies on it.
      const result = await probe(file, MP4_FORMAT, signal, limits);
      const check = playsEverywhere(result, kind);
      if (!check.video || !check.audio || (kind === 'video' && !result.video)) {
        throw new UnreadableMediaError(`the rendition is not H.264/AAC MP4 (${result.format}, ${result.video?.codec ?? '-'}/${result.audio?.codec ?? '-'})`);
      }
      return { file, mime: kind === 'video' ? 'video/mp4' : 'audio/mp4', poster, probe: result };
    },
  };
}
