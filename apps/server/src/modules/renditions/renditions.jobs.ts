import { texts } from '@giftlens/contract/texts';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../adapters/clock.ts';
import { type MediaProcessor, type Rendition, UnreadableMediaError } from '../../adapters/media-processor.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Db } from '../../db/database.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobHandlers } from '../../jobs/runner.ts';
import { PermanentJobError } from '../../jobs/runner.ts';
import { randomHex } from '../../lib/crypto.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import * as repo from './renditions.repository.ts';

export interface RenditionDeps {
  db: Db;
  clock: Clock;
  media: MediaStorage;
  processor: MediaProcessor | null;
}

/** The job key of a file's rendition: one per stored file. */
export const messageRenderKey = (giftId: string, key: string) => `media:${giftId}:${key}`;

/**
 * Turns a stored message (or reaction) into a rendition every phone plays, stores it beside the original, swaps
 * the row over only if it still points at the original, and removes the original after. A retry starts again
 * from the original; a sender who uploaded again meanwhile wins and the rendition is thrown away.
 */
export function renditionJobs({ db, clock, media, processor }: RenditionDeps): Pick<JobHandlers, 'message.render' | 'reaction.render'> {
  async function render(key: string, kind: 'video' | 'audio', use: (r: Rendition, stored: { path: string; poster: string | null; size: number }) => Promise<boolean>) {
    if (!processor) throw new PermanentJobError('ffmpeg is not installed on this worker');
    const work = await mkdtemp(path.join(tmpdir(), 'giftlens-render-'));
    try {
      const input = path.join(work, `input${path.extname(key)}`);
      await pipeline(await media.openRead(key), createWriteStream(input));
      let r: Rendition;
      try {
        r = await processor.render(input, kind, path.join(work, 'out'));
      } catch (err) {
        if (err instanceof UnreadableMediaError) throw new PermanentJobError(err.message);
        throw err;
      }
      const base = `${path.posix.dirname(key)}/${kind === 'video' ? 'rendition' : 'voice'}-${randomHex(8)}`;
      const stored = { path: `${base}${path.extname(r.file)}`, poster: r.poster ? `${base}.jpg` : null, size: 0 };
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
        // A retry starts again from the original under new names: this attempt's files would be orphans.
        await dropOutputs().catch(() => undefined);
        throw err;
      }
      if (!swapped) return dropOutputs();
      // The row points at the rendition now: an original that will not go is left to the retried file deletion.
      await media.delete(key).catch(() => enqueue(db, clock.now(), 'media.delete', { keys: [key] }));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  return {
    'message.render': {
      async run({ giftId, key }) {
        const gift = await findGift(db, giftId);
        if (!gift || gift.message_path !== key || gift.message_state !== 'processing') return;
        const kind = gift.message_type === 'audio' ? 'audio' : 'video';
        await render(key, kind, (r, stored) =>
          repo.finishMessage(db, giftId, key, { path: stored.path, mime: r.mime, size: stored.size, poster: stored.poster, now: clock.now().toISOString() }),
        );
      },
      async onDead({ giftId, key }) {
        await repo.failMessage(db, giftId, key, texts.sender.messageUnreadable, clock.now().toISOString());
      },
    },
    'reaction.render': {
      async run({ reactionId, key }) {
        const reaction = await db.selectFrom('reactions').selectAll().where('id', '=', reactionId).executeTakeFirst();
        if (!reaction || reaction.file_path !== key || reaction.file_state !== 'processing') return;
        await render(key, 'video', (r, stored) =>
          repo.finishReaction(db, reactionId, key, { path: stored.path, mime: r.mime, size: stored.size, poster: stored.poster, now: clock.now().toISOString() }),
        );
      },
      async onDead({ reactionId, key }) {
        await repo.failReaction(db, reactionId, key, clock.now().toISOString());
      },
    },
  };
}
