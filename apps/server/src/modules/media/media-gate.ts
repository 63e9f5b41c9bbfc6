import { recordingLength, texts } from '@giftlens/contract/texts';
import { fileTypeFromFile } from 'file-type';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatOfType, type StoredFormat } from '../../adapters/media-formats.ts';
import {
  MediaBusyError,
  MediaInterruptedError,
  mediaLimitBreach,
  type MediaProcessor,
  MediaTooCostlyError,
  UnreadableMediaError,
} from '../../adapters/media-processor.ts';
import type { Scratch } from '../../adapters/scratch.ts';
import { AppError } from '../../lib/errors.ts';

/** How a refusal names the recording to the person: "video", "voice message" or "reaction". */
export type RecordingName = 'video' | 'voice message' | 'reaction';

/** What a file that passed the gate is: its sniffed format (the stored key's extension and the demuxer). */
export interface Admitted {
  format: StoredFormat;
}

export interface GateRefusals {
  /** The bytes are no type this kind of recording may be (415). */
  wrongType: () => AppError;
  /** ffprobe could not read them as their type (415). */
  unreadable: () => AppError;
}

/**
 * The one gate every uploaded message and reaction passes before it is stored (decision 038): its type is
 * sniffed from the whole file (an ID3 tag is skipped to what follows it, so a playlist behind a large tag is no MP3);
 * ffprobe opens it only as that type and only as a local file, reads its length, size and frame rate from its
 * packets, and anything over MEDIA_LIMITS is refused, all before a single frame is converted.
 */
export function createMediaGate({ processor, scratch }: { processor: MediaProcessor | null; scratch: Scratch }) {
  /** The sniffed type's stored format, if it is one `allowed` lists; null otherwise. */
  function formatFor(mime: string | undefined, allowed: ReadonlySet<string>): StoredFormat | null {
    return mime && allowed.has(mime) ? formatOfType(mime) : null;
  }

  /** ffprobe's verdict on a local file, as the refusal a client sees (or null: it may be stored). */
  async function inspect(file: string, format: StoredFormat, what: RecordingName, refuse: GateRefusals): Promise<AppError | null> {
    if (!processor) return null;
    let probe;
    try {
      probe = await processor.probe(file, format);
    } catch (err) {
      if (err instanceof UnreadableMediaError) return refuse.unreadable();
      if (err instanceof MediaTooCostlyError) return new AppError(422, 'media_too_costly', texts.media.tooCostly);
      if (err instanceof MediaInterruptedError || err instanceof MediaBusyError) {
        return new AppError(503, 'media_check_busy', texts.sender.generic, { retryAfter: 5 });
      }
      throw err;
    }
    const breach = mediaLimitBreach(probe);
    if (!breach) return null;
    if (breach.limit === 'duration') return new AppError(422, 'media_too_long', texts.media.tooLong(what, recordingLength(breach.seconds)));
    if (breach.limit === 'frame') {
      return new AppError(422, 'media_frame_too_large', texts.media.frameTooLarge(what, `${breach.width}×${breach.height}`));
    }
    return new AppError(422, 'media_frame_rate_too_high', texts.media.frameRateTooHigh(what, String(Math.round(breach.framesPerSecond))));
  }

  return {
    /**
     * Checks a stored object (`open` reads the version measured): copied into this process's scratch, where it is
     * sniffed and (with ffmpeg) probed.
     */
    async checkStored(open: () => Promise<Readable>, allowed: ReadonlySet<string>, what: RecordingName, refuse: GateRefusals): Promise<Admitted> {
      const work = await scratch.make('giftlens-probe-');
      try {
        const copy = path.join(work, 'upload');
        await pipeline(await open(), createWriteStream(copy));
        return await this.checkLocal(copy, allowed, what, refuse);
      } finally {
        await scratch.release(work);
      }
    },

    /** Checks a file on this machine (a staged reaction, or the copy above) in place. */
    async checkLocal(file: string, allowed: ReadonlySet<string>, what: RecordingName, refuse: GateRefusals): Promise<Admitted> {
      const format = formatFor((await fileTypeFromFile(file))?.mime, allowed);
      if (!format) throw refuse.wrongType();
      const refusal = await inspect(file, format, what, refuse);
      if (refusal) throw refusal;
      return { format };
    },
  };
}

export type MediaGate = ReturnType<typeof createMediaGate>;
