/**
 * npm run bench:group [-- --clips N] [--seconds S] [--skip-alternative]
 *
 * Group gifts (issue 27, decision 049): what the combined MP4 costs to render.
 *   - N clips (default 10) of S seconds (default 60), phone-like: H.264/AAC, 1080x1920 portrait and 1920x1080
 *     landscape in turn, 30 fps, about 6 Mbit/s with a little moving grain (a test pattern alone is far cheaper to
 *     decode than a camera's picture), each with a tone at its own loudness (-30 dB to +10 dB). Made with ffmpeg's
 *     test sources in a scratch folder of the bench's own (removed after), then converted as the product does
 *     (MediaProcessor.render, as the message/contribution render job).
 *   - renderCombined over the N renditions, a title card ("From …") before each (a segment per part, then a join:
 *     decision 049): wall seconds, CPU seconds (ffmpeg's: this process's children), the peak memory of any one
 *     ffmpeg run, the output's duration, and wall and CPU time over that duration.
 *   - beside it, the same renditions through two baselines: `concat-copy` (the concat demuxer, `-c copy`: no
 *     decoding or encoding at all, the floor) and `re-encode` (the concat demuxer, scaled and padded to 1280x720 and
 *     encoded with the same x264/AAC settings, but no title cards, no loudnorm), and renderCombined's ratio to each.
 *   - the alternative decision 049 measured: every part in one ffmpeg run (one filter graph with a concat filter),
 *     run without the memory limit so that it finishes. Skipped with --skip-alternative.
 * Part B, what a scan of a group gift costs against a single gift's (--scans N, default 100 each; --part a|b runs one):
 *   - the server's own services in this process (createServerInfrastructure + createServices, as `npm start` builds
 *     them: SQLite in a scratch DATA_DIR, the matcher pool), two Lifetime gifts of gift photo 001 (enrolled at submit
 *     by the matcher), each with a text message, made active as a payment does; the second is a group gift with 10
 *     text contributions, inserted through the group-gifts module's repository (invitation + contribution each).
 *   - N genuine scans of each (dataset photo 001-canon, compressed as the browser does) through
 *     `scans.scanGift` (scan-core: the plan rules, the matcher pool, the counted reveal and its grant), each followed
 *     by the message page the phone then opens (`messages.giftMessage`: the message, and a group's contributions with
 *     their signed links), the two gifts in turn (the order swapped every round), after 3 warm-up scans each (the
 *     first closes the group's contributions, as a first opening does). Median and p95 ms of the scan alone and of
 *     scan + page, per gift, and group/single ratios. The recognition work is the same (one gift's references), so
 *     the scan's ratio should be about 1.0; the page's extra is reading the 10 contributions.
 * Prints the load average (the machine is shared): compare runs made under like load. Never fails on a figure.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import {
  COMBINED_AUDIO_CODEC,
  COMBINED_FPS,
  COMBINED_HEIGHT,
  COMBINED_SAMPLE_RATE,
  COMBINED_VIDEO_CODEC,
  COMBINED_WIDTH,
  combinedFilterGraph,
  layoutCard,
  TITLE_CARD_SECONDS,
  TITLE_SIZES,
  type PreparedSegment,
} from '../src/adapters/combined-recipe.ts';
import { MP4_FORMAT } from '../src/adapters/media-formats.ts';
import {
  createFfmpegProcessor,
  findCardFonts,
  type CombinedPart,
  type MediaProcessor,
} from '../src/adapters/media-processor.ts';
import { createServices, type Services } from '../src/composition.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { createServerInfrastructure } from '../src/infrastructure.ts';
import { createBackupCodes } from '../src/lib/backup-codes.ts';
import { markGiftActive, setGiftMessage } from '../src/modules/gifts/gifts.repository.ts';
import {
  insertGroup,
  insertInvitation,
  putContribution,
} from '../src/modules/group-gifts/group-gifts.repository.ts';
import {
  findSenderById,
  insertSenderIfNew,
  updateSender,
} from '../src/modules/sender-auth/sender-auth.repository.ts';

const run = promisify(execFile);
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const CLIPS = option('--clips', 10);
const SECONDS = option('--seconds', 60);
const ALTERNATIVE = !args.includes('--skip-alternative');
const SCANS = option('--scans', 100);
const PART = args.includes('--part') ? args[args.indexOf('--part') + 1] : 'all';
const NAMES = ['Asha', 'Ravi', 'Mei', 'Oluwaseun', 'Zoë', 'Priya', 'Tomás', 'Hannah', 'Karthik', 'Ines'];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const s = (seconds: number) => `${seconds.toFixed(1)}s`;

/** The CPU seconds of this process's ended children (ffmpeg is exec'd in place of setpriv/prlimit, so it is one). */
const TICKS = Number((await run('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
function childCpuSeconds(): number {
  // Fields after the command's name (which is in parentheses and may hold spaces): cutime and cstime are 14 and 15.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

interface Timed<T> {
  value: T;
  wall: number;
  cpu: number;
}
async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const cpu0 = childCpuSeconds();
  const t0 = performance.now();
  const value = await work();
  return { value, wall: (performance.now() - t0) / 1000, cpu: childCpuSeconds() - cpu0 };
}

const ffmpegArgs = (argv: string[]) => ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...argv];
const ffmpeg = (argv: string[]) => run('ffmpeg', ffmpegArgs(argv), { maxBuffer: 16 * 1024 * 1024 });
async function durationOf(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}

/**
 * The peak resident memory (MB) of this process's children while `work` runs: each child's VmHWM, read every 200 ms
 * (ffmpeg is exec'd in place of setpriv/prlimit, so it is the child). A child that ends between two reads is seen at
 * its last read: a lower bound.
 */
async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peakKb = 0;
  const read = () => {
    try {
      for (const pid of readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(/\s+/)) {
        if (!pid) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      }
    } catch {
      // a child that ended meanwhile
    }
  };
  const timer = setInterval(read, 200);
  try {
    return { value: await work(), peakMb: peakKb / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** Clip i: portrait or landscape in turn, its own pattern offset, tone and loudness. */
async function makeClip(dir: string, i: number): Promise<string> {
  const size = i % 2 === 0 ? '1080x1920' : '1920x1080';
  const file = path.join(dir, `clip-${i}.mp4`);
  const gain = -30 + Math.round((40 * i) / Math.max(1, CLIPS - 1));
  // prettier-ignore
  await ffmpeg([
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30,hue=h=${i * 36},noise=alls=6:allf=t`,
    '-f', 'lavfi', '-i', `sine=frequency=${220 + 40 * i}:sample_rate=48000`,
    '-t', String(SECONDS), '-af', `volume=${gain}dB`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '6M', '-maxrate', '8M', '-bufsize', '8M', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', '-shortest', file,
  ]);
  return file;
}

/** At most `n` at a time, in order. */
async function inTurn<T, R>(items: T[], n: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: n }, lane));
  return out;
}

/** The concat demuxer over a list file; the list names our own files only. */
function concatInput(dir: string, name: string, files: string[]): string[] {
  const list = path.join(dir, name);
  writeFileSync(list, files.map((f) => `file '${f.replace(/'/g, "'\\''")}'\n`).join(''));
  return ['-f', 'concat', '-safe', '0', '-i', list];
}

/**
 * The alternative decision 049 measured: every part in one ffmpeg run, one filter graph (the same filters, a concat
 * filter over all segments), encoded straight to AAC/H.264 MP4. Run without prlimit (plain ffmpeg), so it finishes
 * where renderCombined's memory limit would stop it.
 */
async function renderOneRun(
  processor: MediaProcessor,
  dir: string,
  parts: CombinedPart[],
  out: string,
): Promise<void> {
  const fonts = await findCardFonts();
  const segments: PreparedSegment[] = [];
  for (const [i, part] of parts.entries()) {
    const probe = await processor.probe(part.file!, MP4_FORMAT);
    const layout = layoutCard(part.title, TITLE_SIZES, 'bold');
    const textFile = path.join(dir, `title-${i}.txt`);
    writeFileSync(textFile, layout.text);
    const text = fonts.bold ? { textFile, fontFile: fonts.bold, fontSize: layout.fontSize } : null;
    const seconds = probe.durationSeconds!;
    segments.push(
      { kind: 'card', seconds: TITLE_CARD_SECONDS, text },
      {
        kind: 'video',
        input: i,
        videoStream: probe.video!.index,
        audioStream: probe.audio?.index ?? null,
        seconds,
      },
    );
  }
  const inputs = parts.flatMap((p) => ['-i', p.file!]);
  const encode = [
    ...COMBINED_VIDEO_CODEC,
    ...COMBINED_AUDIO_CODEC,
    '-ar',
    String(COMBINED_SAMPLE_RATE),
    '-ac',
    '2',
  ];
  const graph = ['-filter_complex', combinedFilterGraph(segments), '-map', '[v]', '-map', '[a]'];
  await ffmpeg([...inputs, ...graph, ...encode, '-movflags', '+faststart', out]);
}

interface Measured {
  wall: number;
  cpu: number;
  peakMb: number;
  output: number;
}
const measure = async (work: () => Promise<unknown>, out: string): Promise<Measured> => {
  const t = await timed(() => withPeakMemory(work));
  return { wall: t.wall, cpu: t.cpu, peakMb: t.value.peakMb, output: await durationOf(out) };
};
const figures = (m: Measured) =>
  `output=${s(m.output)} wall=${s(m.wall)} cpu=${s(m.cpu)} wall/output=${(m.wall / m.output).toFixed(3)} ` +
  `cpu/output=${(m.cpu / m.output).toFixed(3)} peak-memory=${m.peakMb.toFixed(0)}MB`;

async function partA(): Promise<void> {
  const processor = await createFfmpegProcessor();
  if (!processor) {
    console.log('group render: skipped, ffmpeg/ffprobe not on the PATH');
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-group-'));
  try {
    const indexes = Array.from({ length: CLIPS }, (_, i) => i);
    const made = await timed(() => inTurn(indexes, availableParallelism(), (i) => makeClip(dir, i)));
    console.log(
      `group clips: ${CLIPS} × ${SECONDS}s phone-like (1080x1920/1920x1080 H.264/AAC) made in ${s(made.wall)}`,
    );
    const renditions = await timed(() =>
      inTurn(made.value, 1, async (clip, i) => {
        return (await processor.render(clip, MP4_FORMAT, 'video', path.join(dir, `rendition-${i}`))).file;
      }),
    );
    const files = renditions.value;
    console.log(
      `group renditions: ${CLIPS} as the render job makes them (H.264 kept, faststart, poster) ` +
        `wall=${s(renditions.wall)} cpu=${s(renditions.cpu)}`,
    );
    const parts: CombinedPart[] = files.map((file, i) => ({
      title: `From ${NAMES[i % NAMES.length]!}`,
      kind: 'video',
      file,
    }));
    const inputDuration = (await Promise.all(files.map(durationOf))).reduce((a, b) => a + b, 0);

    console.log(`load average ${load()} (${availableParallelism()} cores)`);
    const combinedOut = path.join(dir, 'combined.mp4');
    const combined = await measure(() => processor.renderCombined(parts, combinedOut), combinedOut);
    const copyOut = path.join(dir, 'copy.mp4');
    const copy = await measure(
      () =>
        ffmpeg([...concatInput(dir, 'copy.txt', files), '-c', 'copy', '-movflags', '+faststart', copyOut]),
      copyOut,
    );
    const scale =
      `scale=${COMBINED_WIDTH}:${COMBINED_HEIGHT}:force_original_aspect_ratio=decrease,` +
      `pad=${COMBINED_WIDTH}:${COMBINED_HEIGHT}:(ow-iw)/2:(oh-ih)/2:black,fps=${COMBINED_FPS},format=yuv420p,setsar=1`;
    const encodeOut = path.join(dir, 'reencode.mp4');
    const reencode = await measure(
      () =>
        ffmpeg([
          ...concatInput(dir, 'reencode.txt', files),
          '-vf',
          scale,
          ...COMBINED_VIDEO_CODEC,
          ...COMBINED_AUDIO_CODEC,
          encodeOut,
        ]),
      encodeOut,
    );
    console.log(
      `group render parts=${CLIPS} input=${s(inputDuration)} ${figures(combined)} ` +
        `ratio-to-baseline=${(combined.wall / reencode.wall).toFixed(2)} (re-encode) ${(combined.wall / copy.wall).toFixed(0)} (concat-copy)`,
    );
    console.log(`group baseline re-encode (no cards, no loudnorm) ${figures(reencode)}`);
    console.log(`group baseline concat-copy ${figures(copy)}`);
    if (ALTERNATIVE) {
      const oneOut = path.join(dir, 'one-run.mp4');
      const one = await measure(() => renderOneRun(processor, dir, parts, oneOut), oneOut);
      console.log(
        `group alternative one-run (one filter graph, unconfined) ${figures(one)} ` +
          `segments/one-run wall=${(combined.wall / one.wall).toFixed(2)} memory=${(combined.peakMb / one.peakMb).toFixed(2)}`,
      );
    }
    console.log(`load average ${load()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------- Part B: a scan of a group gift against a single gift's ----------

const REPO = path.resolve(import.meta.dirname, '../../..');
const PHOTOS = path.join(REPO, 'test-fixtures/gift-photos/covers');
const SESSION_SECRET = 'bench-group-session-secret-0123456789abcdef';
const CONTRIBUTIONS = 10;

/** A camera photo compressed as the browser does before a scan: fit 600x600, JPEG quality 0.5. */
const asBrowserSends = (file: string) =>
  sharp(readFileSync(path.join(PHOTOS, file)))
    .rotate()
    .resize(600, 600, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 50 })
    .toBuffer();

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
    : NaN;
};

/** A new sender's Lifetime gift of `photo`, its photo enrolled by the matcher, a text message, and paid. */
async function activeGift(services: Services, db: Db, photo: Buffer, tag: string): Promise<string> {
  const now = new Date().toISOString();
  const senderId = randomBytes(16).toString('hex');
  await insertSenderIfNew(db, { id: senderId, email: `organizer-${tag}@bench.example`, now });
  await updateSender(db, senderId, { first_name: 'Ada' });
  const sender = (await findSenderById(db, senderId))!;
  const fields = {
    recipientName: 'Maya',
    recipientEmail: `maya-${tag}@bench.example`,
    occasion: 'birthday',
    planId: 'lifetime_us',
  };
  const { giftId } = await services.gifts.createGift(sender, fields, [photo]);
  const message = {
    type: 'text',
    path: null,
    mime: null,
    size: null,
    text: 'Happy birthday, Maya!',
    state: 'ready',
  } as const;
  await setGiftMessage(db, giftId, message, now);
  await markGiftActive(db, giftId, now, createBackupCodes(SESSION_SECRET).fresh(giftId).sealed);
  return giftId;
}

/** Makes `giftId` a group gift with CONTRIBUTIONS text contributions, through the module's repository. */
async function addContributions(db: Db, giftId: string): Promise<void> {
  const now = new Date().toISOString();
  const hash = () => randomBytes(32).toString('hex');
  const deadline = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
  await insertGroup(db, {
    gift_id: giftId,
    deadline,
    closed_at: null,
    invite_nonce: hash(),
    invite_token_hash: hash(),
    empty_warned_at: null,
    summary_sent_at: null,
    combined_path: null,
    combined_error: null,
    created_at: now,
    updated_at: now,
  });
  for (let i = 0; i < CONTRIBUTIONS; i++) {
    const invitationId = randomBytes(16).toString('hex');
    const email = `friend-${i}@bench.example`;
    await insertInvitation(db, {
      id: invitationId,
      gift_id: giftId,
      email,
      token_hash: hash(),
      via_shared_link: 0,
      invite_sent_at: now,
      reminded_48_at: null,
      reminded_24_at: null,
      created_at: now,
    });
    const name = NAMES[i % NAMES.length]!;
    const content = {
      name,
      message_type: 'text',
      file_path: null,
      poster_path: null,
      mime: null,
      size: null,
      text: `Happy birthday from ${name}! `.repeat(8),
      state: 'ready',
      error: null,
    } as const;
    await putContribution(db, giftId, invitationId, randomBytes(16).toString('hex'), content, now);
  }
}

async function partB(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-group-scan-'));
  const quiet = { info: () => undefined, warn: (line: string) => console.warn(`  server: ${line}`) };
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET,
    PUBLIC_ORIGIN: 'http://127.0.0.1:3000',
    PAYMENTS: 'test',
    LOG_LEVEL: 'warn',
  });
  const infra = await createServerInfrastructure(config, quiet);
  try {
    const services = createServices({
      ...infra,
      secureCookies: false,
      publicOrigin: config.publicOrigin,
      demoImageDirs: [],
      push: { allowedHosts: null },
      whatsappEnabled: false,
      mediaProcessor: null,
      log: () => undefined,
    });
    const reference = readFileSync(path.join(PHOTOS, 'reference/001.jpg'));
    const scan = await asBrowserSends('photos/001-canon.jpg');
    const single = await activeGift(services, infra.db, reference, 'single');
    const group = await activeGift(services, infra.db, reference, 'group');
    await addContributions(infra.db, group);

    let client = 0;
    /** A genuine scan, then the message page the phone opens with the grant (where contributions are listed). */
    const scanOnce = async (giftId: string) => {
      const t0 = performance.now();
      const outcome = await services.scans.scanGift(
        giftId,
        scan,
        `10.7.${(++client >> 8) & 255}.${client & 255}`,
      );
      const scanned = performance.now();
      if (!outcome.response.matchResult.matched)
        throw new Error(`the genuine scan of ${giftId} did not match`);
      const page = await services.messages.giftMessage(giftId);
      return { scanMs: scanned - t0, bothMs: performance.now() - t0, shown: page.contributions.length };
    };
    // Warm-up; and the proof each is what it says: the group's page lists its 10 contributions, the single's none.
    for (let i = 0; i < 3; i++) {
      for (const [giftId, want] of [
        [single, 0],
        [group, CONTRIBUTIONS],
      ] as const) {
        const { shown } = await scanOnce(giftId);
        if (shown !== want)
          throw new Error(`the message page of ${giftId} lists ${shown} contributions, not ${want}`);
      }
    }
    console.log(`load average ${load()} (${availableParallelism()} cores)`);
    const times = {
      single: { scan: [] as number[], both: [] as number[] },
      group: { scan: [] as number[], both: [] as number[] },
    };
    for (let round = 0; round < SCANS; round++) {
      const order = round % 2 === 0 ? (['single', 'group'] as const) : (['group', 'single'] as const);
      for (const which of order) {
        const r = await scanOnce(which === 'single' ? single : group);
        times[which].scan.push(r.scanMs);
        times[which].both.push(r.bothMs);
      }
    }
    const figures = (xs: number[]) =>
      `median=${quantile(xs, 0.5).toFixed(1)}ms p95=${quantile(xs, 0.95).toFixed(1)}ms`;
    const ratio = (a: number[], b: number[]) =>
      `median=${(quantile(a, 0.5) / quantile(b, 0.5)).toFixed(2)} p95=${(quantile(a, 0.95) / quantile(b, 0.95)).toFixed(2)}`;
    for (const step of ['scan', 'both'] as const) {
      const name = step === 'scan' ? 'scan' : 'scan+message-page';
      console.log(`group ${name} single n=${SCANS} ${figures(times.single[step])}`);
      console.log(`group ${name} group(${CONTRIBUTIONS} text) n=${SCANS} ${figures(times.group[step])}`);
      console.log(`group ${name} ratio group/single ${ratio(times.group[step], times.single[step])}`);
    }
    console.log(`load average ${load()}`);
  } finally {
    await infra.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`bench:group — load average ${load()}`);
if (PART === 'all' || PART === 'a') await partA();
if (PART === 'all' || PART === 'b') await partB();
