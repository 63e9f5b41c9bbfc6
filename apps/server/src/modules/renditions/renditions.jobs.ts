import { texts } from '@giftlens/contract/texts';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../adapters/clock.ts';
import { formatOfKey } from '../../adapters/media-formats.ts';
import { type MediaProcessor, MediaTooCostlyError, type Rendition, UnreadableMediaError } from '../../adapters/media-processor.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Scratch } from '../../adapters/scratch.ts';
import type { Db } from '../../db/database.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobContext, JobHandlers } from '../../jobs/runner.ts';
import { PermanentJobError } from '../../jobs/runner.ts';
import { failMessageRender, findGift, finishMessageRender } from '../gifts/gifts.repository.ts';
import { failReactionRender, findReaction, finishReactionRender } from '../reactions/reactions.repository.ts';
import { queueMerchantEvent } from '../merchants/merchant-events.ts';
import { queueSenderNotice } from '../notices/notices.queue.ts';
import { failContributionRender, findContribution, finishContributionRender } from '../group-gifts/group-gifts.repository.ts';
import { refreshCombined } from '../group-gifts/group-gifts.service.ts';

export interface RenditionDeps {
  db: Db;
  clock: Clock;
  media: MediaStorage;
  processor: MediaProcessor | null;
  /** This process's scratch folder, where the input copy and ffmpeg's output live while a render runs. */
  scratch: Scratch;
}

/** Each render's scratch folder starts so (inside this process's own scratch folder). */
export const RENDER_SCRATCH_PREFIX = 'giftlens-render-';

/** How a dead render's error starts when the file was too costly to convert (its CPU-time or memory limit). */
const TOO_COSTLY = 'too costly: ';
/** What the sender is told of a message whose render died. */
export const renderFailureText = (error: string) => (error.startsWith(TOO_COSTLY) ? texts.media.tooCostly : texts.sender.messageUnreadable);

/**
 * The job kinds that write renditions of one stored file (`key` in their payload) into media storage; housekeeping
 * finds what a killed attempt left by them (the partial index jobs_render_leftovers_idx names the same kinds).
 */
export const RENDER_JOB_KINDS = ['message.render', 'reaction.render', 'contribution.render'] as const;
/** The single messages' lane (RENDER_CONCURRENCY): a message, reaction or contribution, apart from everything else. */
export const RENDER_LANE_KINDS = RENDER_JOB_KINDS;
/** The combined renders' own lane (GROUP_RENDER_CONCURRENCY): minutes of ffmpeg that no single message waits behind. */
export const COMBINED_LANE_KINDS = ['group.render'] as const;
/** Every kind that runs ffmpeg, apart from deliveries and notices. */
export const FFMPEG_KINDS = [...RENDER_LANE_KINDS, ...COMBINED_LANE_KINDS] as const;

/**
 * Every key attempt `attempt` of render job `jobId` may write for the stored file `key`: named after the job and
 * the attempt, beside the original, so what a killed attempt left can be found again without listing storage
 * (decision 034).
 */
export function renditionKeys(key: string, jobId: string, attempt: number): string[] {
  const dir = path.posix.dirname(key);
  const tag = `${jobId}-${attempt}`;
  return [`${dir}/rendition-${tag}.mp4`, `${dir}/rendition-${tag}.jpg`, `${dir}/voice-${tag}.m4a`];
}

/**
 * Turns a stored message (or reaction) into a rendition every phone plays, stores it beside the original, swaps
 * the row over only if it still points at the original, and removes the original after. A retry starts again
 * from the original; a sender who uploaded again meanwhile wins and the rendition is thrown away.
 */
export function renditionJobs({ db, clock, media, processor, scratch }: RenditionDeps): Pick<JobHandlers, 'message.render' | 'reaction.render' | 'contribution.render'> {
  async function render(key: string, kind: 'video' | 'audio', job: JobContext, use: (r: Rendition, stored: { path: string; poster: string | null; size: number }) => Promise<boolean>) {
    if (!processor) throw new PermanentJobError('ffmpeg is not installed on this worker');
    // The key's extension is the sniffed type confirm gave it: the one demuxer the file may be opened with.
    const format = formatOfKey(key);
    if (!format) throw new PermanentJobError(`${key} is named for no format GiftLens stores`);
    const work = await scratch.make(RENDER_SCRATCH_PREFIX);
    try {
      const input = path.join(work, `input.${format.ext}`);
      await pipeline(await media.openRead(key), createWriteStream(input), { signal: job.signal });
      let r: Rendition;
      try {
        r = await processor.render(input, format, kind, path.join(work, 'out'), job.signal);
      } catch (err) {
        // The file's own fault never mends; a signal, a timeout or a stopped job is tried again (runner back-off).
        if (err instanceof UnreadableMediaError) throw new PermanentJobError(err.message);
        if (err instanceof MediaTooCostlyError) throw new PermanentJobError(`${TOO_COSTLY}${err.message}`);
        throw err;
      }
      // Named after this attempt: a retry writes under other names, and housekeeping finds what a killed one left.
      const [video = '', poster = '', voice = ''] = renditionKeys(key, job.id, job.attempt);
      const stored = { path: kind === 'video' ? video : voice, poster: r.poster ? poster : null, size: 0 };
      const dropOutputs = async () => {
        await media.delete(stored.path);
        if (stored.poster) await media.delete(stored.poster);
      };
      let swapped: boolean;
      try {
        await media.putFile(stored.path, r.file);
        if (r.poster && stored.poster) await media.putFile(stored.poster, r.poster);
        stored.size = (await media.stat(stored.path))?.size ?? 0;
        swapped = await use(r, stored);
      } catch (err) {
        // A retry starts again from the original under its own names: this attempt's files would be orphans.
        await dropOutputs().catch(() => undefined);
        throw err;
      }
      if (!swapped) return dropOutputs();
      // The row points at the rendition now: an original that will not go is left to the retried file deletion.
      await media.delete(key).catch(() => enqueue(db, clock.now(), 'media.delete', { keys: [key] }));
    } finally {
      await scratch.release(work);
    }
  }

  return {
    'message.render': {
      async run({ giftId, key }, job) {
        const gift = await findGift(db, giftId);
        if (!gift || gift.message_path !== key || gift.message_state !== 'processing') return;
        const kind = gift.message_type === 'audio' ? 'audio' : 'video';
        // A merchant's gift tells the shop its message is ready with the swap, in one transaction.
        await render(key, kind, job, (r, stored) =>
          db.transaction().execute(async (trx) => {
            const now = clock.now();
            const swapped = await finishMessageRender(trx, giftId, key, { path: stored.path, mime: r.mime, size: stored.size, poster: stored.poster, now: now.toISOString() });
            if (swapped) await queueMerchantEvent(trx, now, giftId, 'gift.message_ready');
            return swapped;
          }),
        );
      },
      async onDead({ giftId, key }, error) {
        await failMessageRender(db, giftId, key, renderFailureText(error), clock.now().toISOString());
      },
    },
    'reaction.render': {
      async run({ reactionId, key }, job) {
        const reaction = await findReaction(db, reactionId);
        if (!reaction || reaction.file_path !== key || reaction.file_state !== 'processing') return;
        // The sender hears of the reaction once it can be watched: its notice goes with the swap, in one transaction.
        await render(key, 'video', job, (r, stored) =>
          db.transaction().execute(async (trx) => {
            const now = clock.now();
            const swapped = await finishReactionRender(trx, reactionId, key, { path: stored.path, mime: r.mime, size: stored.size, poster: stored.poster, now: now.toISOString() });
            if (swapped) await queueSenderNotice(trx, now, 'reaction', reaction.gift_id);
            return swapped;
          }),
        );
      },
      async onDead({ reactionId, key }) {
        await failReactionRender(db, reactionId, key, clock.now().toISOString());
      },
    },
    'contribution.render': {
      async run({ contributionId, key }, job) {
        const c = await findContribution(db, contributionId);
        if (!c || c.file_path !== key || c.state !== 'processing') return;
        let dropped: string | null = null;
        // A contribution converted after contributions closed joins the combined MP4: a new version is queued with it.
        await render(key, c.message_type === 'audio' ? 'audio' : 'video', job, (r, stored) =>
          db.transaction().execute(async (trx) => {
            const now = clock.now();
            const swapped = await finishContributionRender(trx, contributionId, key, { path: stored.path, mime: r.mime, size: stored.size, poster: stored.poster, now: now.toISOString() });
            const gift = swapped ? await findGift(trx, c.gift_id) : undefined;
            if (gift) dropped = await refreshCombined(trx, gift, now);
            return swapped;
          }),
        );
        if (dropped) await media.delete(dropped).catch(() => enqueue(db, clock.now(), 'media.delete', { keys: [dropped!] }));
      },
      async onDead({ contributionId, key }, error) {
        await failContributionRender(db, contributionId, key, renderFailureText(error), clock.now().toISOString());
      },
    },
  };
}
