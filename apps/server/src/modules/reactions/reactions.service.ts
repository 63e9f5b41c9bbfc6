import { LIFETIME_MESSAGE_LIMIT_BYTES } from '@giftlens/contract/constants';
import { type ConsentRequest, type PlayConsentRequest, type PlayConsentResponse, ReactionUploadFields, type StartSyncedRecordingRequest } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Clock } from '../../adapters/clock.ts';
import { keyWithFormat } from '../../adapters/media-formats.ts';
import { type MediaStorage, type ReceivedFile, SizeLimitExceededError } from '../../adapters/media-storage.ts';
import type { Db } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { parse } from '../../lib/http.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import { planOf } from '../gifts/gift-plan.ts';
import { queueSenderNotice } from '../notices/notices.queue.ts';
import { renderJob } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { MediaGate } from '../media/media-gate.ts';
import * as repo from './reactions.repository.ts';
import type { Reaction } from './reactions.table.ts';

export const REACTION_MAX_BYTES = LIFETIME_MESSAGE_LIMIT_BYTES;
/** A reaction id is usable this long after play-consent (created under a reveal grant): enough for a long video. */
export const REACTION_WINDOW_MS = 2 * 60 * 60 * 1000;

/** What a browser's MediaRecorder writes: WebM (Chrome, Firefox) or MP4 (Safari). */
const REACTION_TYPES: ReadonlySet<string> = new Set(['video/webm', 'video/mp4']);

export interface ReceivedReaction {
  file: ReceivedFile;
}

export interface ReactionsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  /** Sniffs and (with ffmpeg) probes a recording before it is stored, as messages are. */
  gate: MediaGate;
  /** Whether ffmpeg converts reactions (a render job); without it a recording is kept as recorded. */
  renders: boolean;
  /** Tells a job runner in this process that the conversion is due now, instead of at its next poll. */
  wakeJobs?: () => void;
}

const reactionExists = () => new AppError(409, 'reaction_exists', texts.recipient.reactionExists);
const reactionNotFound = () => new AppError(404, 'reaction_not_found', texts.recipient.reactionNotFound);
const consentRequired = () => new AppError(403, 'consent_required', texts.recipient.reactionConsentRequired);
const fileInvalid = (status = 415) => new AppError(status, 'reaction_file_invalid', texts.recipient.reactionFileInvalid);

export function createReactionsService({ db, media, clock, gate, renders, wakeJobs }: ReactionsDeps) {
  /** A reaction still open for recording: known, recent, and without a file. */
  async function openReaction(id: string): Promise<Reaction> {
    const reaction = await repo.findReaction(db, id);
    if (!reaction) throw reactionNotFound();
    if (reaction.file_path !== null) throw reactionExists();
    if (Date.parse(reaction.created_at) + REACTION_WINDOW_MS < clock.now().getTime()) throw reactionNotFound();
    return reaction;
  }

  return {
    /** The caller has checked the reveal grant for req.giftId. */
    async playConsent(req: z.infer<typeof PlayConsentRequest>): Promise<PlayConsentResponse> {
      const gift = await gifts.findGift(db, req.giftId);
      if (!gift) throw giftNotFound();
      if (!planOf(gift).reactions) {
        return { success: true, allowRecording: false, message: texts.recipient.reactionsNotAllowed, data: null };
      }
      const existing = await repo.findReactionForGift(db, gift.id);
      if (existing?.file_path) return { success: true, allowRecording: false, message: texts.recipient.alreadyReacted, data: null };
      const reaction = await repo.openReaction(db, {
        id: randomHex(16),
        giftId: gift.id,
        playbackSessionId: req.playbackSessionId,
        mediaDuration: req.mediaDuration,
        now: clock.now().toISOString(),
      });
      if (!reaction || reaction.file_path) {
        return { success: true, allowRecording: false, message: texts.recipient.alreadyReacted, data: null };
      }
      return { success: true, allowRecording: true, message: texts.recipient.reactionConsentAsked, data: { id: reaction.id } };
    },

    /** Records the recipient's answer; false marks the reaction declined ("Just Play"). */
    async consent(req: z.infer<typeof ConsentRequest>): Promise<void> {
      const reaction = await openReaction(req.reactionId);
      const now = clock.now().toISOString();
      const ok = await repo.updateOpenReaction(db, reaction.id, {
        status: req.consentGranted ? 'consented' : 'declined',
        consent_granted: req.consentGranted ? 1 : 0,
        consented_at: now,
        device_info: JSON.stringify(req.deviceInfo),
        browser_info: JSON.stringify(req.browserInfo),
        updated_at: now,
      });
      if (!ok) throw reactionExists();
    },

    async startSyncedRecording(req: z.infer<typeof StartSyncedRecordingRequest>): Promise<void> {
      const reaction = await openReaction(req.reactionId);
      if (reaction.consent_granted !== 1) throw consentRequired();
      const ok = await repo.updateOpenReaction(db, reaction.id, {
        status: 'recording',
        media_start_time: req.mediaStartTime,
        playback_session_id: req.playbackSessionId,
        updated_at: clock.now().toISOString(),
      });
      if (!ok) throw reactionExists();
    },

    /** Streams the file to a temporary place on this machine, enforcing the size while the bytes arrive. */
    async receive(stream: Readable): Promise<ReceivedReaction> {
      try {
        return { file: await media.receive(stream, REACTION_MAX_BYTES) };
      } catch (err) {
        if (err instanceof SizeLimitExceededError) throw fileInvalid(413);
        throw err;
      }
    },

    /**
     * Stores the received recording for the reaction: consented, no file yet, the bytes really WebM or MP4.
     * Nothing half-written: every refusal removes the file, and the row changes only in one conditional update.
     */
    async upload(fields: Record<string, string>, received: ReceivedReaction | undefined): Promise<void> {
      let key: string | null = null;
      try {
        const input = parse(ReactionUploadFields, fields, texts.recipient.uploadFailed);
        if (!received || received.file.size === 0) throw fileInvalid(400);
        const reaction = await openReaction(input.reactionId);
        if (reaction.consent_granted !== 1) throw consentRequired();
        // The same gate as a message: its real type, readable as that type only, and within MEDIA_LIMITS.
        const { format } = await gate.checkLocal(received.file.localFile, REACTION_TYPES, 'reaction', { wrongType: () => fileInvalid(), unreadable: () => fileInvalid() });
        const stored = keyWithFormat(`reactions/${reaction.gift_id}/reaction-${randomHex(8)}`, format);
        key = stored;
        await received.file.commit(stored);
        const now = clock.now();
        const file = {
          path: stored,
          mime: format.mime,
          size: received.file.size,
          durationSeconds: input.durationSeconds,
          mediaEndTime: input.mediaEndTime,
          syncOffsetMs: input.syncOffsetMs,
          recordingQuality: input.recordingQuality,
          now: now.toISOString(),
        };
        // The reaction and what follows it, in one transaction: its conversion, whose end tells the sender (the
        // notice says it can be watched), or, with nothing to convert, the sender's notice at once.
        const attached = await db.transaction().execute(async (trx) => {
          if (!(await repo.attachFile(trx, reaction.id, { ...file, state: renders ? 'processing' : 'ready' }))) return false;
          if (renders) {
            // Its conversion takes a turn in the share of the gift's sender (keys.ts senderShare).
            const gift = await gifts.findGift(trx, reaction.gift_id);
            await enqueue(trx, now, 'reaction.render', { reactionId: reaction.id, key: stored }, renderJob(reaction.gift_id, stored, gift?.sender_id ?? reaction.gift_id));
          }
          else await queueSenderNotice(trx, now, 'reaction', reaction.gift_id);
          return true;
        });
        if (renders) wakeJobs?.();
        if (!attached) throw reactionExists();
      } catch (err) {
        if (key) await media.delete(key).catch(() => undefined);
        await received?.file.discard().catch(() => undefined);
        throw err;
      }
    },
  };
}

export type ReactionsService = ReturnType<typeof createReactionsService>;
