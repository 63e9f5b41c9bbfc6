import { type MediaStorage, withLandingKeys } from '../../adapters/media-storage.ts';
import type { JobHandler } from '../../jobs/runner.ts';

/** Deletes every file it names; deleting one already gone is harmless, so a retry simply goes over all again. */
export function mediaDeleteJob({ media }: { media: MediaStorage }): JobHandler<'media.delete'> {
  return {
    async run({ keys }) {
      const failed: string[] = [];
      for (const key of withLandingKeys(media, keys)) {
        try {
          await media.delete(key);
        } catch {
          failed.push(key);
        }
      }
      if (failed.length > 0) throw new Error(`could not delete ${failed.length} of ${keys.length} files: ${failed.slice(0, 5).join(', ')}`);
    },
  };
}
