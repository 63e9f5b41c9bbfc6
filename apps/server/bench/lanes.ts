/**
 * npm run bench:lanes [-- --clips N] [--seconds S] [--queued Q]
 *
 * Issue 37, item 1: a sender's 1-second message, converted while another sender's combined group video of N clips
 * (default 10) of S seconds (default 20) renders. The job runner's lanes exactly as `npm start` builds them
 * (composition.ts startJobs: the single messages' lane RENDER_LANE_KINDS, the combined renders' own lane
 * COMBINED_LANE_KINDS, one slot each by default), and beside them the lane of before (every ffmpeg kind in one lane
 * of 1). The jobs run real ffmpeg (MediaProcessor.render for the message, renderCombined for the group video) over
 * clips made with ffmpeg's test sources in a scratch folder of the bench's own, with the jobs in a scratch SQLite.
 * Prints, for each: the message's time to ready from the moment its job was queued (the combined render already
 * running), and the combined render's wall time.
 *
 * Then the fair share inside the single messages' lane: one sender queues Q (default 10) messages (the clips, S seconds
 * each), another sender's 1-second message is queued right after them; with senders taking turns (the lane as
 * startJobs runs it, composition.ts jobLanes) and, beside it, in order of due instants (before). Prints the second
 * sender's time to ready and how many of the first sender's were converted before it. Prints the load average (the
 * machine is shared). Never fails on a figure.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { systemClock } from '../src/adapters/clock.ts';
import { formatOfKey } from '../src/adapters/media-formats.ts';
import { createFfmpegProcessor, type CombinedPart } from '../src/adapters/media-processor.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { jobLanes } from '../src/composition.ts';
import { renderJob } from '../src/jobs/keys.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { createJobRunner, type JobHandlers, type JobRunnerOptions } from '../src/jobs/runner.ts';
import { FFMPEG_KINDS } from '../src/modules/renditions/renditions.jobs.ts';

const run = promisify(execFile);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIPS = arg('clips', 10);
const SECONDS = arg('seconds', 20);
const QUEUED = arg('queued', 10);

async function clip(dir: string, name: string, seconds: number, size: string): Promise<string> {
  const file = path.join(dir, `${name}.mp4`);
  // prettier-ignore
  await run('ffmpeg', [
    '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file,
  ]);
  return file;
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function main() {
  const processor = await createFfmpegProcessor();
  if (!processor) throw new Error('ffmpeg and ffprobe are needed (Debian: apt-get install ffmpeg)');
  const dir = mkdtempSync(path.join(tmpdir(), 'giftlens-bench-lanes-'));
  try {
    console.log(`making ${CLIPS} clips of ${SECONDS} s and a 1-second message…`);
    const clips = await Promise.all(Array.from({ length: CLIPS }, (_, i) => clip(dir, `clip-${i}`, SECONDS, i % 2 ? '1280x720' : '720x1280')));
    const message = await clip(dir, 'message', 1, '720x1280');
    const parts: CombinedPart[] = clips.map((file, i) => ({ title: `From guest ${i + 1}`, kind: 'video', file }));
    const format = formatOfKey(message);
    if (!format) throw new Error('no stored format for .mp4');

    // The render lanes as startJobs runs them, one slot each.
    const serverLanes = jobLanes({ jobConcurrency: 4, renderConcurrency: 1, groupRenderConcurrency: 1 }).filter((l) => !('except' in l.kinds));
    const layouts: { name: string; lanes: NonNullable<JobRunnerOptions['kinds']>[] }[] = [
      { name: 'lanes of issue 37 (message lane + combined lane)', lanes: serverLanes.map((l) => l.kinds) },
      { name: 'one render lane of 1 (before)', lanes: [{ only: FFMPEG_KINDS }] },
    ];
    for (const layout of layouts) {
      const db = await createDatabase({ kind: 'sqlite', file: path.join(dir, `${layout.lanes.length}.sqlite`) });
      await migrateToLatest(db);
      let combinedStarted: () => void = () => undefined;
      const combinedRunning = new Promise<void>((resolve) => (combinedStarted = resolve));
      const done = new Map<string, number>();
      let finished: (kind: string) => void = () => undefined;
      const handlers = {
        'group.render': {
          async run(_payload, ctx) {
            combinedStarted();
            await processor.renderCombined(parts, path.join(dir, `combined-${layout.lanes.length}.mp4`), ctx.signal);
            done.set('group.render', performance.now());
            finished('group.render');
          },
        },
        'message.render': {
          async run(_payload, ctx) {
            await processor.render(message, format, 'video', path.join(dir, `message-${layout.lanes.length}`), ctx.signal);
            done.set('message.render', performance.now());
            finished('message.render');
          },
        },
      } as Partial<JobHandlers> as JobHandlers;
      const runners = layout.lanes.map((kinds) => createJobRunner({ db, clock: systemClock, log: quiet, handlers, kinds, concurrency: 1, pollMs: 50 }));
      const both = new Promise<void>((resolve) => {
        finished = () => {
          if (done.size === 2) resolve();
        };
      });
      const combinedQueued = performance.now();
      await enqueue(db, systemClock.now(), 'group.render', { giftId: 'a'.repeat(32), version: 1 });
      runners.forEach((r) => r.start());
      await combinedRunning;
      const messageQueued = performance.now();
      await enqueue(db, systemClock.now(), 'message.render', { giftId: 'b'.repeat(32), key: 'gifts/b/message.mp4' });
      runners.forEach((r) => r.wake());
      await both;
      await Promise.all(runners.map((r) => r.stop()));
      await db.destroy();
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(
        `${layout.name}: 1-second message ready ${s(done.get('message.render')! - messageQueued)} after it was queued; ` +
          `combined render of ${CLIPS} clips x ${SECONDS} s ${s(done.get('group.render')! - combinedQueued)}`,
      );
    }
    await fairShare(dir, processor, clips, message, format);
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One sender's QUEUED messages queued, then another sender's 1-second one: its time to ready, turns or not. */
async function fairShare(
  dir: string,
  processor: NonNullable<Awaited<ReturnType<typeof createFfmpegProcessor>>>,
  clips: string[],
  message: string,
  format: NonNullable<ReturnType<typeof formatOfKey>>,
) {
  const lane = jobLanes({ jobConcurrency: 4, renderConcurrency: 1, groupRenderConcurrency: 1 }).find((l) => 'only' in l.kinds && l.kinds.only.includes('message.render'))!;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  for (const fair of [lane.fair, false]) {
    const db = await createDatabase({ kind: 'sqlite', file: path.join(dir, `fair-${fair}.sqlite`) });
    await migrateToLatest(db);
    const order: string[] = [];
    let readyAt = 0;
    let finished: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (finished = resolve));
    const handlers = {
      'message.render': {
        async run({ key }: { key: string }, ctx: { signal: AbortSignal }) {
          const who = key.split('/')[1]!;
          const source = who === 'b' ? message : clips[Number(/message-(\d+)/.exec(key)![1]) % clips.length]!;
          await processor.render(source, format, 'video', path.join(dir, `fair-${fair}-${who}-${order.length}`), ctx.signal);
          order.push(who);
          if (who === 'b') readyAt = performance.now();
          if (order.length === QUEUED + 1) finished();
        },
      },
    } as Partial<JobHandlers> as JobHandlers;
    const now = systemClock.now().getTime();
    for (let i = 0; i < QUEUED; i++) {
      const key = `gifts/a/message-${i}.mp4`;
      await enqueue(db, systemClock.now(), 'message.render', { giftId: 'a'.repeat(32), key }, { ...renderJob('a'.repeat(32), key, 'sender-a'), runAt: new Date(now - 1000 + i) });
    }
    const runner = createJobRunner({ db, clock: systemClock, log: quiet, handlers, kinds: lane.kinds, concurrency: 1, pollMs: 50, fair });
    runner.start();
    // The first sender's first conversion is under way: the second sender's single message comes in.
    while (order.length === 0 && !(await db.selectFrom('jobs').select('id').where('status', '=', 'running').executeTakeFirst())) await new Promise((r) => setTimeout(r, 20));
    const queuedAt = performance.now();
    const key = 'gifts/b/message.mp4';
    await enqueue(db, systemClock.now(), 'message.render', { giftId: 'b'.repeat(32), key }, renderJob('b'.repeat(32), key, 'sender-b'));
    runner.wake();
    await all;
    await runner.stop();
    await db.destroy();
    console.log(
      `${fair ? 'senders take turns (issue 37)' : 'in order of due instants (before)'}: another sender's 1-second message ready ${s(readyAt - queuedAt)} ` +
        `after it was queued behind ${QUEUED} of one sender's ${SECONDS}-s messages (${order.indexOf('b')} of theirs converted before it)`,
    );
  }
}

await main();
