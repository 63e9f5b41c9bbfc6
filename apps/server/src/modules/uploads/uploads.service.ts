import { SIGNED_URL_TTL_MS, UPLOAD_CONFIRM_GRACE_MS, UPLOAD_URL_TTL_MS } from '@giftlens/contract/constants';
import { MESSAGE_MIME_TYPES } from '@giftlens/contract/media';
import { texts } from '@giftlens/contract/texts';
import { formatFileMegabytes, formatLimit, type Plan } from '@giftlens/contract/plans';
import type {
  ConfirmUploadRequest,
  GenerateUploadUrlRequest,
  GenerateUploadUrlResponse,
  SaveTextMessageRequest,
} from '@giftlens/contract/sender';
import { fileTypeFromBuffer } from 'file-type';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../adapters/clock.ts';
import { type MediaProcessor, UnreadableMediaError } from '../../adapters/media-processor.ts';
import { MediaChangedError, type MediaStorage, SizeLimitExceededError } from '../../adapters/media-storage.ts';
import type { Db } from '../../db/database.ts';
import { enqueue } from '../../jobs/queue.ts';
import { randomHex, randomToken } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { planOf } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import { messageRenderKey } from '../renditions/renditions.jobs.ts';
import * as repo from './uploads.repository.ts';

export interface UploadsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  /** ffmpeg: a confirmed file is probed (unreadable ones refused) and converted by a job; null keeps it as is. */
  processor: MediaProcessor | null;
  wakeJobs?: () => void;
}

const fileTooLarge = (plan: Plan, sizeBytes: number) =>
  new AppError(
    413,
    'file_too_large',
    texts.sender.fileTooLarge(`${plan.name} plan`, formatLimit(plan.maxFileBytes), formatFileMegabytes(sizeBytes)),
  );
const uploadUrlInvalid = () => new AppError(403, 'upload_url_invalid', texts.sender.uploadUrlInvalid);
const messageLocked = () => new AppError(409, 'message_locked', texts.sender.messageLocked);
const uploadChanged = () => new AppError(409, 'upload_changed', texts.sender.uploadChanged);

/** The message may change until the gift is first opened (paid or not); after that it is what was revealed. */
const changeable = (gift: Gift) => gift.status !== 'active' || gift.first_opened_at === null;

function extensionFor(fileName: string, fileType: string): string {
  const fromName = /\.([a-z0-9]{1,5})$/i.exec(fileName)?.[1];
  if (fromName) return fromName.toLowerCase();
  const subtype = fileType.split('/')[1]?.split(';')[0]?.replace(/^x-/, '') ?? '';
  return /^[a-z0-9]{1,5}$/.test(subtype) ? subtype : 'bin';
}

export function createUploadsService({ db, media, clock, processor, wakeJobs }: UploadsDeps) {

  async function ownChangeableGift(sender: Sender, giftId: string): Promise<Gift> {
    const gift = await gifts.findSenderGift(db, giftId, sender.id);
    if (!gift) throw giftNotFound();
    if (!changeable(gift)) throw messageLocked();
    return gift;
  }

  /** After a new message is stored, the one it replaced (and its poster) is no longer referenced. */
  async function dropReplacedFiles(previous: Gift, current: string | null) {
    for (const file of [previous.message_path, previous.message_poster_path]) {
      if (file && file !== current) await media.delete(file).catch(() => undefined);
    }
  }

  /** ffprobe on a local copy: a file it cannot read is refused now, while the sender is still on the page. */
  async function readable(key: string, version: string): Promise<boolean> {
    if (!processor) return true;
    const work = await mkdtemp(path.join(tmpdir(), 'giftlens-probe-'));
    try {
      const copy = path.join(work, `upload${path.extname(key)}`);
      await pipeline(await media.openRead(key, version), createWriteStream(copy));
      await processor.probe(copy);
      return true;
    } catch (err) {
      if (err instanceof UnreadableMediaError) return false;
      throw err;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  return {
    async generateUploadUrl(sender: Sender, req: GenerateUploadUrlRequest): Promise<GenerateUploadUrlResponse> {
      const gift = await ownChangeableGift(sender, req.giftId);
      const plan = planOf(gift);
      if (!/^(video|audio)\//i.test(req.fileType)) throw new AppError(415, 'file_type_invalid', texts.sender.fileTypeInvalid);
      if (req.fileSize !== undefined && req.fileSize > plan.maxFileBytes) throw fileTooLarge(plan, req.fileSize);

      const now = clock.now();
      const id = randomToken(24);
      const filePath = `gifts/${gift.id}/message-${randomHex(8)}.${extensionFor(req.fileName, req.fileType)}`;
      const expiresAt = new Date(now.getTime() + UPLOAD_URL_TTL_MS);
      await repo.insertIntent(db, {
        id,
        gift_id: gift.id,
        message_type: req.messageType,
        file_path: filePath,
        declared_type: req.fileType,
        max_bytes: plan.maxFileBytes,
        status: 'pending',
        size: null,
        expires_at: expiresAt.toISOString(),
        created_at: now.toISOString(),
      });
      return {
        success: true,
        uploadUrl: await media.uploadUrl({ id, key: filePath, expiresAt, now }),
        publicUrl: media.signedUrl(filePath, SIGNED_URL_TTL_MS, now),
        filePath,
      };
    },

    /** The PUT target: streams to a temp file, stopping as soon as the plan's limit is passed. */
    async receiveUpload(
      id: string,
      query: { exp?: string; sig?: string },
      body: Readable,
      contentLength: number | undefined,
    ): Promise<{ size: number }> {
      const now = clock.now();
      const { exp = '', sig = '' } = query;
      if (!media.verifyUploadUrl(id, exp, sig, now)) throw uploadUrlInvalid();
      const intent = await repo.findIntent(db, id);
      if (!intent || intent.status === 'confirmed' || Date.parse(intent.expires_at) < now.getTime()) {
        throw uploadUrlInvalid();
      }
      const gift = await gifts.findGift(db, intent.gift_id);
      if (!gift) throw uploadUrlInvalid();
      if (!changeable(gift)) throw messageLocked();
      const plan = planOf(gift);
      if (contentLength !== undefined && contentLength > intent.max_bytes) throw fileTooLarge(plan, contentLength);

      let received;
      try {
        received = await media.receive(body, intent.max_bytes);
      } catch (err) {
        if (err instanceof SizeLimitExceededError) throw fileTooLarge(plan, contentLength ?? err.receivedBytes);
        throw err;
      }
      // Under the gift's lock, which confirm holds for its last look at the file: these bytes reach the key either
      // before that look (and confirm refuses a file it did not check) or find the upload confirmed and go.
      let committed = false;
      try {
        committed = await db.transaction().execute(async (trx) => {
          await gifts.lockGifts(trx, [intent.gift_id]);
          const current = await repo.findIntent(trx, intent.id);
          if (!current || current.status === 'confirmed') return false;
          try {
            await received.commit(intent.file_path);
            await repo.markIntentUploaded(trx, intent.id, received.size);
          } catch (err) {
            await media.delete(intent.file_path);
            throw err;
          }
          return true;
        });
      } finally {
        // Nothing is left in staging: committed bytes moved away, refused ones go.
        await received.discard();
      }
      if (!committed) throw uploadUrlInvalid();
      return { size: received.size };
    },

    async confirmUpload(sender: Sender, req: ConfirmUploadRequest): Promise<void> {
      const gift = await ownChangeableGift(sender, req.giftId);
      const plan = planOf(gift);
      const intent = await repo.findIntentByPath(db, gift.id, req.filePath);
      const stale = intent !== undefined && Date.parse(intent.expires_at) + UPLOAD_CONFIRM_GRACE_MS < clock.now().getTime();
      if (!intent || intent.message_type !== req.messageType || stale) {
        throw new AppError(400, 'upload_not_found', texts.sender.confirmUploadFailed);
      }
      // Checked where the bytes landed; on S3 that is apart from the key the message will have.
      const landed = media.landingKey(intent.file_path);
      const stat = await media.stat(landed);
      if (!stat || stat.size === 0) throw new AppError(400, 'upload_missing', texts.sender.confirmUploadFailed);

      const reject = async (error: AppError) => {
        await media.delete(landed);
        if (landed !== intent.file_path) await media.delete(intent.file_path);
        await repo.deleteIntent(db, intent.id);
        return error;
      };
      // Every check reads the version measured here, and only that version becomes the message: a presigned PUT
      // used again meanwhile (S3) fails a read or the copy with MediaChangedError, answered as a 409.
      const { version } = stat;
      const unlessChanged = async <T>(checks: () => Promise<T>): Promise<T> => {
        try {
          return await checks();
        } catch (err) {
          if (err instanceof MediaChangedError) throw await reject(uploadChanged());
          throw err;
        }
      };
      const sniffed = await unlessChanged(async () => {
        // On S3 nothing stopped the bytes on their way in: a file over the plan's limit goes here, with its 413.
        if (stat.size > plan.maxFileBytes) throw await reject(fileTooLarge(plan, stat.size));
        const type = await fileTypeFromBuffer(await media.readHead(landed, 4100, version));
        if (!type || !MESSAGE_MIME_TYPES[intent.message_type].has(type.mime)) {
          throw await reject(new AppError(415, 'file_type_invalid', texts.sender.fileTypeInvalid));
        }
        if (!(await readable(landed, version))) throw await reject(new AppError(415, 'message_unreadable', texts.sender.messageUnreadable));
        await media.promoteUpload(landed, intent.file_path, version);
        return type;
      });

      // The files being replaced are read in the transaction that replaces them (a render may have swapped them).
      let replaced: Gift = gift;
      const stored = await db.transaction().execute(async (trx) => {
        replaced = (await gifts.lockGifts(trx, [gift.id]))[0] ?? gift;
        // Where the bytes land on their key itself (local files), the PUT target commits under this same lock: a
        // file it put there after the checks is seen here, and never becomes the message.
        if (landed === intent.file_path && (await media.stat(landed))?.version !== version) return 'changed';
        const ok = await gifts.setGiftMessage(
          trx,
          gift.id,
          {
            type: intent.message_type,
            path: intent.file_path,
            mime: sniffed.mime,
            size: stat.size,
            text: null,
            state: processor ? 'processing' : 'ready',
          },
          clock.now().toISOString(),
        );
        if (!ok) return 'locked';
        await repo.markIntentConfirmed(trx, intent.id);
        // Converted to a rendition every phone plays; the gift is revealable once it is ready.
        if (processor) {
          await enqueue(trx, clock.now(), 'message.render', { giftId: gift.id, key: intent.file_path }, { key: messageRenderKey(gift.id, intent.file_path) });
        }
        return 'stored';
      });
      if (stored !== 'stored') throw await reject(stored === 'locked' ? messageLocked() : uploadChanged());
      wakeJobs?.();
      await dropReplacedFiles(replaced, intent.file_path);
    },

    async saveTextMessage(sender: Sender, req: SaveTextMessageRequest): Promise<void> {
      const gift = await ownChangeableGift(sender, req.giftId);
      const stored = await gifts.setGiftMessage(
        db,
        gift.id,
        { type: 'text', path: null, mime: null, size: null, text: req.text, state: 'ready' },
        clock.now().toISOString(),
      );
      if (!stored) throw messageLocked();
      await dropReplacedFiles(gift, null);
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
