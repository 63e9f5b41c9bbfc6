import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  cardText,
  COMBINED_HEIGHT,
  COMBINED_WIDTH,
  layoutCard,
  TEXT_SIZES,
  textCardSeconds,
  TITLE_CARD_SECONDS,
} from '../src/adapters/combined-recipe.ts';
import {
  createFfmpegProcessor,
  MediaInterruptedError,
  UnreadableMediaError,
  type CombinedPart,
} from '../src/adapters/media-processor.ts';

// Real ffmpeg (Debian's package; CI installs it), as renditions.test.ts: a group gift's combined MP4 (decision 049).
const processor = await createFfmpegProcessor();
if (!processor)
  throw new Error('These tests need ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg).');

const work = mkdtempSync(path.join(tmpdir(), 'giftlens-combined-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function make(name: string, args: string[]): string {
  const out = path.join(work, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out], { timeout: 60_000 });
  return out;
}

/** Every kind of character that means something to ffmpeg's filter graphs, drawtext's expansion, or a shell. */
const HOSTILE =
  "It's \"great\": 100% \\ back\\slash; [x] ,a=b 'quoted' %{pts} %{eif:t*1000:d} $(rm -rf /) 🎉🎂 नमस्ते दोस्त 你好 مرحبا\r\nsecond line\u0007";

/** EBU R128 integrated loudness (LUFS) of the file's sound, or of `seconds` of it from `from` (ebur128 says it on stderr). */
function integratedLoudness(file: string, from?: number, seconds?: number): number {
  const range = from === undefined ? [] : ['-ss', String(from), '-t', String(seconds)];
  const stderr = execFileSync(
    'sh',
    [
      '-c',
      'ffmpeg -hide_banner -nostats "$@" 2>&1 >/dev/null',
      'ffmpeg',
      ...range,
      '-i',
      file,
      '-map',
      '0:a',
      '-af',
      'ebur128',
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const values = [...stderr.matchAll(/^\s+I:\s+(-?[\d.]+) LUFS$/gm)].map((m) => Number(m[1]));
  const last = values.at(-1);
  if (last === undefined) throw new Error(`no loudness in ffmpeg's output:\n${stderr.slice(-2000)}`);
  return last;
}

interface Probe {
  format: { duration: string };
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    r_frame_rate?: string;
    duration?: string;
    sample_rate?: string;
  }[];
}
const ffprobe = (file: string) =>
  JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      encoding: 'utf8',
    }),
  ) as Probe;

/** Every video frame's time (s), in order. */
const framesTimes = (file: string) =>
  execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file],
    {
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n')
    .map(Number)
    .sort((a, b) => a - b);

/** One frame at `at` seconds as 8-bit grey pixels, scaled down (enough to tell a drawn card from a plain one). */
function greyFrame(file: string, at: number): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      at.toFixed(2),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      'scale=320:180',
      '-pix_fmt',
      'gray',
      '-f',
      'rawvideo',
      '-',
    ],
    {
      timeout: 60_000,
      maxBuffer: 1024 * 1024,
    },
  );
}
const distinctValues = (frame: Buffer) => new Set(frame).size;
const bright = (frame: Buffer) => frame.filter((v) => v > 200).length;

/** The top-level MP4 boxes in order: "faststart" means moov comes before mdat. */
function topLevelBoxes(file: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= file.length;) {
    const size = file.readUInt32BE(at);
    boxes.push(file.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

let landscape: string;
let portraitSilent: string;
let voice: string;
beforeAll(() => {
  // A landscape clip as a phone's rendition, its tone loud (about -10 LUFS); a portrait clip at 25 fps with no sound
  // at all; a quiet voice message (about -52 LUFS). The renditions render() makes are H.264/AAC MP4 and AAC M4A.
  const x264 = '-c:v libx264 -preset ultrafast -pix_fmt yuv420p';
  landscape = make(
    'landscape.mp4',
    `-f lavfi -i testsrc=size=640x360:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000 -t 3 -af volume=12dB ${x264} -c:a aac`.split(
      ' ',
    ),
  );
  portraitSilent = make('portrait.mp4', `-f lavfi -i testsrc=size=360x640:rate=25 -t 2 ${x264}`.split(' '));
  voice = make(
    'voice.m4a',
    '-f lavfi -i sine=frequency=300:sample_rate=44100 -t 3 -af volume=-30dB -c:a aac'.split(' '),
  );
});

describe('a group gift’s combined MP4', () => {
  it('joins a landscape video, a portrait video without sound, a voice and a hostile text into one 1280x720 H.264/AAC MP4, loudness evened', async () => {
    // The two sounds really are far apart before: the evening below means something.
    const loud = integratedLoudness(landscape);
    const quiet = integratedLoudness(voice);
    expect(loud - quiet).toBeGreaterThan(30);

    const parts: CombinedPart[] = [
      { title: 'From Asha', kind: 'video', file: landscape },
      { title: "From O'Brien: 100% \\ [x]; a,b", kind: 'video', file: portraitSilent },
      { title: 'From Mei', kind: 'audio', file: voice },
      { title: 'From नमस्ते 🎉', kind: 'text', text: HOSTILE },
    ];
    const out = path.join(work, 'combined.mp4');
    const result = await processor.renderCombined(parts, out);
    expect(result).toMatchObject({ file: out, mime: 'video/mp4' });

    const textSeconds = textCardSeconds(HOSTILE);
    const expected = 4 * TITLE_CARD_SECONDS + 3 + 2 + 3 + textSeconds;
    expect(result.durationS).toBeGreaterThan(expected - 0.25);
    expect(result.durationS).toBeLessThan(expected + 0.25);

    const probe = ffprobe(out);
    const video = probe.streams.find((s) => s.codec_type === 'video');
    const audio = probe.streams.find((s) => s.codec_type === 'audio');
    expect(video).toMatchObject({
      codec_name: 'h264',
      width: COMBINED_WIDTH,
      height: COMBINED_HEIGHT,
      pix_fmt: 'yuv420p',
      r_frame_rate: '30/1',
    });
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000' });
    expect(Math.abs(Number(probe.format.duration) - expected)).toBeLessThan(0.25);
    // A constant 30 fps across every join: each frame 1/30 s after the one before, none missing or doubled.
    const times = framesTimes(out);
    const steps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...steps)).toBeLessThan(1 / 30 + 0.002);
    expect(Math.min(...steps)).toBeGreaterThan(1 / 30 - 0.002);
    // The sound runs as long as the picture (no drift at the joins).
    expect(Math.abs(Number(audio!.duration) - Number(video!.duration))).toBeLessThan(0.01);
    const boxes = topLevelBoxes(readFileSync(out));
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    // Where each part lies: a title card before each.
    const landscapeAt = TITLE_CARD_SECONDS;
    const portraitAt = landscapeAt + 3 + TITLE_CARD_SECONDS;
    const voiceAt = portraitAt + 2 + TITLE_CARD_SECONDS;
    const textAt = voiceAt + 3 + TITLE_CARD_SECONDS;
    // The middle of each part, clear of the joins.
    const evenedLoud = integratedLoudness(out, landscapeAt + 0.25, 2.5);
    const evenedQuiet = integratedLoudness(out, voiceAt + 0.25, 2.5);
    expect(Math.abs(evenedLoud - evenedQuiet)).toBeLessThan(3);
    expect(Math.abs(evenedLoud - -16)).toBeLessThan(3);
    expect(Math.abs(evenedQuiet - -16)).toBeLessThan(3);

    // The portrait clip is pillarboxed: black at the sides, the picture in the middle.
    const portrait = greyFrame(out, portraitAt + 1);
    const column = (x: number) => Array.from({ length: 180 }, (_, y) => portrait[y * 320 + x]!);
    expect(Math.max(...column(10))).toBeLessThan(20);
    expect(Math.max(...column(160))).toBeGreaterThan(100);

    // Cards are drawn: the title before the landscape clip, the voice's card, the text card, each has light glyphs on
    // the dark card. The text's "%{pts}" is drawn as typed, not the time: two moments of its card are one picture.
    for (const at of [1, voiceAt + 1, textAt + 0.5]) expect(bright(greyFrame(out, at))).toBeGreaterThan(200);
    const early = greyFrame(out, textAt + 0.5);
    const late = greyFrame(out, textAt + textSeconds - 0.5);
    expect(early.filter((v, i) => Math.abs(v - late[i]!) > 64).length).toBeLessThan(10);
    // Its scratch (the cards' text files) is gone.
    expect(readdirSync(work).filter((f) => f.startsWith('.combined-cards-'))).toEqual([]);
  });

  it('draws its cards from a scratch folder whose path holds the graph’s own special characters', async () => {
    // The job's scratch is ours, but a path is the one thing that enters the graph: escaped, never quoted.
    const odd = path.join(work, "we'ird: dir, [x]; \\ 100%");
    mkdirSync(odd);
    const out = path.join(odd, 'combined.mp4');
    const result = await processor.renderCombined(
      [{ title: 'From Asha', kind: 'text', text: 'Happy birthday!' }],
      out,
    );
    expect(
      Math.abs(result.durationS - (TITLE_CARD_SECONDS + textCardSeconds('Happy birthday!'))),
    ).toBeLessThan(0.25);
    expect(bright(greyFrame(out, 1))).toBeGreaterThan(200);
    // A short text in regular weight: Noto Sans's strokes (libass, issue 40) light fewer pixels than DejaVu's did
    // (136 where drawtext lit over 200); a card without text lights none.
    expect(bright(greyFrame(out, TITLE_CARD_SECONDS + 1))).toBeGreaterThan(100);
  });

  it('draws plain cards when no font is found, rather than failing', async () => {
    const bare = await createFfmpegProcessor({ cardFonts: null });
    const out = path.join(work, 'no-font.mp4');
    const result = await bare!.renderCombined(
      [{ title: 'From Asha', kind: 'text', text: 'Happy birthday!' }],
      out,
    );
    expect(
      Math.abs(result.durationS - (TITLE_CARD_SECONDS + textCardSeconds('Happy birthday!'))),
    ).toBeLessThan(0.25);
    // One colour all over: nothing drawn.
    expect(distinctValues(greyFrame(out, 1))).toBeLessThanOrEqual(2);
    expect(bright(greyFrame(out, TITLE_CARD_SECONDS + 1))).toBe(0);
  });

  it('refuses a part whose file is not what its kind says, and stops when the job is stopped', async () => {
    await expect(
      processor.renderCombined(
        [{ title: 'From Asha', kind: 'video', file: voice }],
        path.join(work, 'bad.mp4'),
      ),
    ).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(
      processor.renderCombined(
        [{ title: 'From Asha', kind: 'audio', file: portraitSilent }],
        path.join(work, 'bad.mp4'),
      ),
    ).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(
      processor.renderCombined([{ title: 'From Asha', kind: 'video' }], path.join(work, 'bad.mp4')),
    ).rejects.toBeInstanceOf(UnreadableMediaError);
    const stop = new AbortController();
    const running = processor.renderCombined(
      [{ title: 'From Asha', kind: 'video', file: landscape }],
      path.join(work, 'stopped.mp4'),
      stop.signal,
    );
    // Stopped while ffmpeg encodes (not before it starts, which is refused up front): once a segment is being written.
    await vi.waitFor(
      () => expect(readdirSync(work, { recursive: true }).some((f) => /^\.combined-[^/]*\/segment-\d+\.mov$/.test(String(f)))).toBe(true),
      { timeout: 30_000, interval: 10 },
    );
    stop.abort();
    await expect(running).rejects.toBeInstanceOf(MediaInterruptedError);
  });
});

describe('a card’s text', () => {
  it('loses control characters and carriage returns, keeps everything else as typed', () => {
    expect(cardText(HOSTILE)).toBe(
      "It's \"great\": 100% \\ back\\slash; [x] ,a=b 'quoted' %{pts} %{eif:t*1000:d} $(rm -rf /) 🎉🎂 नमस्ते दोस्त 你好 مرحبا\nsecond line",
    );
    expect(cardText('a\n\n\n\n\nb\t c\u2028')).toBe('a\n\nb  c');
  });

  it('fits 2000 characters on a card, and breaks a word longer than a line', () => {
    const long = layoutCard('lorem ipsum dolor sit amet '.repeat(80).slice(0, 2000), TEXT_SIZES, 'regular');
    expect(long.fontSize).toBeGreaterThanOrEqual(18);
    expect(long.text.replace(/\s+/g, ' ').trim()).toBe(
      'lorem ipsum dolor sit amet '.repeat(80).slice(0, 2000).trim(),
    );
    const word = layoutCard('x'.repeat(500), [32], 'regular');
    const lines = word.text.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('x'.repeat(500));
    // 2000 line breaks cannot all fit: cut, ending in an ellipsis.
    const tall = layoutCard('a\n\n'.repeat(1000), TEXT_SIZES, 'regular');
    expect(tall.text.split('\n').length).toBeLessThan(40);
    expect(tall.text.endsWith('…')).toBe(true);
  });
});
