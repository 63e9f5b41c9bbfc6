/**
 * The ffmpeg recipe of a group gift's combined MP4 (decision 049): the filter graph that puts a title card before
 * a part, scales and pads a video to one size and frame rate, shows a voice message over a card with its title and
 * a text message as a card of its own, evens the loudness of each part, and joins its segments (a concat filter).
 * MediaProcessor.renderCombined runs it once per part and joins the parts' files with the concat demuxer.
 * Pure: the text it draws is written to files by the caller (drawtext `textfile=`, never inline), so nothing a
 * contributor types is ever part of the graph.
 */

/** The combined video's frame: landscape 720p, every part scaled into it keeping its aspect, padded black. */
export const COMBINED_WIDTH = 1280;
export const COMBINED_HEIGHT = 720;
/** A constant frame rate: phones record 24–60 fps, often variable. */
export const COMBINED_FPS = 30;
export const COMBINED_SAMPLE_RATE = 48_000;
/** How long the title card before each part stays. */
export const TITLE_CARD_SECONDS = 2.5;
/** EBU R128 single-pass loudnorm per part: what streaming services aim at for speech on phones. */
export const COMBINED_LOUDNESS = 'loudnorm=I=-16:TP=-1.5:LRA=11';
/** The cards' background (dark blue-grey) and text colour. */
const CARD_COLOUR = '0x1f2030';
const TEXT_COLOUR = 'white';

/** A text card stays 3 s plus 1 s for every 15 characters (slow reading), at least 4 s and at most 30 s. */
export function textCardSeconds(text: string): number {
  const chars = Array.from(text).length;
  return Math.min(30, Math.max(4, Math.round((3 + chars / 15) * 10) / 10));
}

/** The area text may fill: the frame less a margin all round. */
const TEXT_BOX = { width: COMBINED_WIDTH - 120, height: COMBINED_HEIGHT - 100 };
/**
 * Average advance of a DejaVu Sans glyph in ems (its bold is wider), and the line height drawtext uses (the font's
 * ascent plus descent). Measured on mixed English text; a line of wide letters may run a little longer.
 */
const EM_ADVANCE = { regular: 0.56, bold: 0.62 } as const;
const LINE_HEIGHT_EMS = 1.17;

/**
 * What a card may show of a contributor's text: no control characters (drawtext would draw them as boxes, and a
 * carriage return or a form feed moves its pen), tabs as spaces, at most two blank lines in a row, no spaces at the
 * ends. NFC, so a name typed with combining accents is drawn as the same glyphs as a precomposed one.
 */
export function cardText(text: string): string {
  return (
    text
      .normalize('NFC')
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, '')
      .split('\n')
      .map((l) => l.trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/** Splits one paragraph into lines of at most `max` characters, at spaces where it can, inside a word where not. */
function wrapParagraph(paragraph: string, max: number): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  for (const word of paragraph.split(/ +/)) {
    let chars = Array.from(word);
    if (line.length && line.length + 1 + chars.length > max) {
      lines.push(line.join(''));
      line = [];
    }
    while (chars.length > max) {
      if (line.length) {
        lines.push(line.join(''));
        line = [];
      }
      lines.push(chars.slice(0, max).join(''));
      chars = chars.slice(max);
    }
    if (line.length) line.push(' ');
    line.push(...chars);
  }
  if (line.length || !lines.length) lines.push(line.join(''));
  return lines;
}

export interface CardLayout {
  /** The text to draw, its lines joined by newlines (drawtext breaks lines there). */
  text: string;
  fontSize: number;
}

/**
 * The largest of `sizes` at which `text` wrapped to the box fits in it; at the smallest, the lines that do not fit
 * are cut and the last one ends in an ellipsis (a 2000-character text of short lines can be taller than a card).
 */
export function layoutCard(
  text: string,
  sizes: readonly number[],
  weight: keyof typeof EM_ADVANCE,
): CardLayout {
  const clean = cardText(text);
  let lines: string[] = [];
  let fontSize = sizes[0] ?? 32;
  for (const size of sizes) {
    fontSize = size;
    const perLine = Math.max(8, Math.floor(TEXT_BOX.width / (EM_ADVANCE[weight] * size)));
    lines = clean.split('\n').flatMap((p) => wrapParagraph(p, perLine));
    if (lines.length * LINE_HEIGHT_EMS * size <= TEXT_BOX.height) return { text: lines.join('\n'), fontSize };
  }
  const fit = Math.max(1, Math.floor(TEXT_BOX.height / (LINE_HEIGHT_EMS * fontSize)));
  if (lines.length > fit) {
    lines = lines.slice(0, fit);
    lines[fit - 1] = `${Array.from(lines[fit - 1] ?? '')
      .slice(0, -1)
      .join('')}…`;
  }
  return { text: lines.join('\n'), fontSize };
}

/** A title ("From Asha") in large type, smaller when long. */
export const TITLE_SIZES = [72, 60, 48, 40] as const;
/** A text message's card: as large as its length allows. */
export const TEXT_SIZES = [56, 48, 40, 34, 28, 24, 20, 18] as const;

/**
 * A path as a filter option's value: escaped for the option parser (`\`, `'`, `:`), then for the graph parser (`\`, `'`,
 * `[`, `]`, `,`, `;`), ffmpeg's two levels of escaping. Only paths are put into the graph: ours (the scratch folder)
 * and the font fontconfig names.
 */
export function filterPath(file: string): string {
  return file.replace(/[\\':]/g, '\\$&').replace(/[\\'[\],;]/g, '\\$&');
}

/** A card to draw: the file holding its (already laid out) text, or none for a plain card. */
export interface CardText {
  textFile: string;
  fontFile: string;
  fontSize: number;
  /**
   * Issue 40: the card as an ASS script drawn by libass with the shipped fonts in `fontsDir` (every script shaped);
   * drawtext with `fontFile` only where there is none.
   */
  ass?: { file: string; fontsDir: string };
}

/** A part ready for the graph: its input's index and streams (from a probe), or a card. */
export type PreparedSegment =
  | { kind: 'card'; seconds: number; text: CardText | null }
  | { kind: 'video'; input: number; videoStream: number; audioStream: number | null; seconds: number }
  | { kind: 'audio'; input: number; audioStream: number; seconds: number; text: CardText | null };

const AUDIO_FORMAT = `aformat=sample_fmts=fltp:sample_rates=${COMBINED_SAMPLE_RATE}:channel_layouts=stereo`;
const VIDEO_FORMAT = 'format=yuv420p,setsar=1';
const seconds = (s: number) => s.toFixed(3);
/** Exactly `s` seconds of a stream: padded (the last frame held, or silence) when shorter, cut when longer. */
const exactVideo = (s: number) =>
  `tpad=stop=-1:stop_mode=clone,trim=duration=${seconds(s)},setpts=PTS-STARTPTS`;
const exactAudio = (s: number) => `apad,atrim=duration=${seconds(s)},asetpts=PTS-STARTPTS`;
const silence = (s: number) =>
  `anullsrc=r=${COMBINED_SAMPLE_RATE}:cl=stereo,atrim=duration=${seconds(s)},${AUDIO_FORMAT}`;

function card(s: number, text: CardText | null): string {
  const source = `color=c=${CARD_COLOUR}:s=${COMBINED_WIDTH}x${COMBINED_HEIGHT}:r=${COMBINED_FPS}:d=${seconds(s)}`;
  if (!text) return `${source},${VIDEO_FORMAT}`;
  if (text.ass) return `${source},ass=filename=${filterPath(text.ass.file)}:fontsdir=${filterPath(text.ass.fontsDir)}:shaping=complex,${VIDEO_FORMAT}`;
  // expansion=none: a "%{…}" in the text is drawn as typed, never evaluated.
  const draw =
    `drawtext=fontfile=${filterPath(text.fontFile)}:textfile=${filterPath(text.textFile)}:expansion=none` +
    `:fontsize=${text.fontSize}:fontcolor=${TEXT_COLOUR}:line_spacing=0:x=(w-text_w)/2:y=(h-text_h)/2`;
  return `${source},${draw},${VIDEO_FORMAT}`;
}

/**
 * The filter graph for `segments` in order: each becomes a `[vN][aN]` pair of exactly its length, and a concat
 * filter joins them into `[v]` and `[a]`.
 */
export function combinedFilterGraph(segments: readonly PreparedSegment[]): string {
  const chains: string[] = [];
  const pairs: string[] = [];
  segments.forEach((seg, n) => {
    const v = `v${n}`;
    const a = `a${n}`;
    if (seg.kind === 'card') {
      chains.push(`${card(seg.seconds, seg.text)}[${v}]`, `${silence(seg.seconds)}[${a}]`);
    } else if (seg.kind === 'video') {
      chains.push(
        `[${seg.input}:${seg.videoStream}]setpts=PTS-STARTPTS,scale=${COMBINED_WIDTH}:${COMBINED_HEIGHT}:force_original_aspect_ratio=decrease,` +
          `pad=${COMBINED_WIDTH}:${COMBINED_HEIGHT}:(ow-iw)/2:(oh-ih)/2:black,fps=${COMBINED_FPS},${VIDEO_FORMAT},${exactVideo(seg.seconds)}[${v}]`,
        seg.audioStream === null
          ? `${silence(seg.seconds)}[${a}]`
          : `[${seg.input}:${seg.audioStream}]asetpts=PTS-STARTPTS,${COMBINED_LOUDNESS},aresample=${COMBINED_SAMPLE_RATE},${AUDIO_FORMAT},${exactAudio(seg.seconds)}[${a}]`,
      );
    } else {
      chains.push(
        `${card(seg.seconds, seg.text)}[${v}]`,
        `[${seg.input}:${seg.audioStream}]asetpts=PTS-STARTPTS,${COMBINED_LOUDNESS},aresample=${COMBINED_SAMPLE_RATE},${AUDIO_FORMAT},${exactAudio(seg.seconds)}[${a}]`,
      );
    }
    pairs.push(`[${v}][${a}]`);
  });
  chains.push(`${pairs.join('')}concat=n=${segments.length}:v=1:a=1[v][a]`);
  return chains.join(';\n');
}

/**
 * The encoder options of every segment of the combined MP4 (the graph's `[v]` and `[a]`): the H.264 every phone plays,
 * the same for every segment so they join with `-c:v copy`; the sound as PCM in a QuickTime file, so a segment is
 * exactly as long as its picture. AAC is encoded once, over the joined sound: joined AAC segments (`-c copy`) put
 * each segment's sound about 20 ms after its picture (the last short frame counts whole, then the next priming frame).
 */
// prettier-ignore
export const COMBINED_VIDEO_CODEC = [
  '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'main', '-pix_fmt', 'yuv420p',
  '-r', String(COMBINED_FPS), '-g', String(2 * COMBINED_FPS),
];
export const COMBINED_AUDIO_CODEC = ['-c:a', 'aac', '-b:a', '128k'];
// prettier-ignore
export const COMBINED_SEGMENT_OPTIONS = [
  '-map', '[v]', '-map', '[a]', ...COMBINED_VIDEO_CODEC,
  '-c:a', 'pcm_s16le', '-ar', String(COMBINED_SAMPLE_RATE), '-ac', '2', '-f', 'mov',
];
/** The joined segments' options: the picture copied, the sound encoded once as AAC, the moov atom first. */
// prettier-ignore
export const COMBINED_JOIN_OPTIONS = [
  '-map', '0:v', '-map', '0:a', '-c:v', 'copy', ...COMBINED_AUDIO_CODEC, '-movflags', '+faststart', '-f', 'mp4',
];
