import { SIGNED_URL_TTL_MS, UPLOAD_CONFIRM_GRACE_MS, UPLOAD_URL_TTL_MS } from '@giftlens/contract/constants';
import { MESSAGE_MIME_TYPES } from '@giftlens/contract/media';
import { groupTexts } from '@giftlens/contract/group-gifts';
import { texts } from '@giftlens/contract/texts';
import { formatFileMegabytes, formatLimit, type Plan } from '@giftlens/contract/plans';
import type {
  ConfirmUploadRequest,
  GenerateUploadUrlRequest,
  GenerateUploadUrlResponse,
  MessageType,
  SaveTextMessageRequest,
} from '@giftlens/contract/sender';
import type { Readable } from 'node:stream';
import type { Clock } from '../../adapters/clock.ts';
import { keyWithFormat } from '../../adapters/media-formats.ts';
import { MediaChangedError, type MediaStorage, SizeLimitExceededError } from '../../adapters/media-storage.ts';
import type { Db, Executor } from '../../db/database.ts';
import { renderJob } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';
import { randomHex, randomToken } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { planOf, refuseIfTakenDown } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import { queueMerchantEvent } from '../merchants/merchant-events.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import type { MediaGate } from '../media/media-gate.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import * as repo from './uploads.repository.ts';
import type { UploadIntent } from './uploads.table.ts';

export interface UploadsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  /** Sniffs and (with ffmpeg) probes a confirmed file; a job then converts it. */
  gate: MediaGate;
  /** Whether ffmpeg converts messages (a render job after confirm); without it a message is kept as uploaded. */
  renders: boolean;
  wakeJobs?: () => void;
  /** Whether a group gift still takes contributions (an upload through a contributor's link lands only then). */
  groupOpen: (db: Executor, giftId: string) => Promise<boolean>;
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

/**
 * Where an upload lands before it is checked: no extension of the client's (a name ending .m3u8 once made ffprobe
 * read the bytes as a playlist). Confirm moves the checked bytes to this name with the extension of their sniffed
 * type (decision 038).
 */
const LANDING_EXTENSION = 'upload';

const unreadable = () => new AppError(415, 'message_unreadable', texts.sender.messageUnreadable);
const wrongType = () => new AppError(415, 'file_type_invalid', texts.sender.fileTypeInvalid);

export function createUploadsService({ db, media, clock, gate, renders, wakeJobs, groupOpen }: UploadsDeps) {

  async function ownChangeableGift(sender: Sender, giftId: string): Promise<Gift> {
    const gift = await gifts.findSenderGift(db, giftId, sender.id);
    if (!gift) throw giftNotFound();
    refuseIfTakenDown(gift);
    if (!changeable(gift)) throw messageLocked();
    return gift;
  }

  /** After a new message is stored, the one it replaced (and its poster) is no longer referenced. */
  async function dropReplacedFiles(previous: Gift, current: string | null) {
    for (const file of [previous.message_path, previous.message_poster_path]) {
      if (file && file !== current) await media.delete(file).catch(() => undefined);
    }
  }

  /**
   * Checks a landed upload (the intent of a PUT) and moves it to the key of its sniffed type: the plan's size, the
   * hostile-media gate (decision 038), and that only the version measured here becomes the message. Refusals delete
   * every copy and the intent. The caller stores `key` in its transaction, checking `landed` again under its lock
   * where the bytes land on their upload key itself (local files), and calls `reject` if it cannot.
   */
  async function admit(intent: UploadIntent, plan: Plan, messageType: MessageType) {
    const stale = Date.parse(intent.expires_at) + UPLOAD_CONFIRM_GRACE_MS < clock.now().getTime();
    if (intent.message_type !== messageType || stale) throw new AppError(400, 'upload_not_found', texts.sender.confirmUploadFailed);
    // Checked where the bytes landed; on S3 that is apart from the key the message will have.
    const landed = media.landingKey(intent.file_path);
    const stat = await media.stat(landed);
    if (!stat || stat.size === 0) throw new AppError(400, 'upload_missing', texts.sender.confirmUploadFailed);

    // Every key the checked bytes may be found under by the time something is refused.
    const keys = new Set([landed, intent.file_path]);
    const reject = async (error: AppError) => {
      for (const key of keys) await media.delete(key);
      await repo.deleteIntent(db, intent.id);
      return error;
    };
    // Every check reads the version measured here, and only that version becomes the message: a presigned PUT
    // used again meanwhile (S3) fails a read or the copy with MediaChangedError, answered as a 409.
    const { version } = stat;
    try {
      // On S3 nothing stopped the bytes on their way in: a file over the plan's limit goes here, with its 413.
      if (stat.size > plan.maxFileBytes) throw await reject(fileTooLarge(plan, stat.size));
      let admitted;
      try {
        const what = intent.message_type === 'audio' ? 'voice message' : 'video';
        admitted = await gate.checkStored(() => media.openRead(landed, version), MESSAGE_MIME_TYPES[intent.message_type], what, { wrongType, unreadable });
      } catch (err) {
        if (err instanceof AppError && err.statusCode < 500) throw await reject(err);
        throw err;
      }
      // Named for what the bytes are, never for what the client called them.
      const key = keyWithFormat(intent.file_path, admitted.format);
      // Only once this confirm has put the bytes there is the stored key its own to remove: another confirm of the
      // same upload (a double click) may have moved them first.
      await media.promoteUpload(landed, key, version);
      keys.add(key);
      return { format: admitted.format, key, size: stat.size, landed, version, reject };
    } catch (err) {
      if (err instanceof MediaChangedError) throw await reject(uploadChanged());
      throw err;
    }
  }

  /** Under the gift's lock: whether bytes put on a local upload key after the checks changed what `admit` checked. */
  async function changedSinceAdmitted(intent: UploadIntent, a: { key: string; landed: string; version: string }): Promise<boolean> {
    if (a.landed !== intent.file_path) return false;
    const now = await media.stat(a.landed);
    return a.key === a.landed ? now?.version !== a.version : now !== null;
  }

  /** A signed PUT target for a message of this gift (or of a contributor's invitation), under the plan's limits. */
  async function createIntent(gift: Gift, req: { fileType: string; fileSize?: number | undefined; messageType: MessageType }, target: { dir: string; invitationId: string | null }) {
    const plan = planOf(gift);
    if (!/^(video|audio)\//i.test(req.fileType)) throw new AppError(415, 'file_type_invalid', texts.sender.fileTypeInvalid);
    if (req.fileSize !== undefined && req.fileSize > plan.maxFileBytes) throw fileTooLarge(plan, req.fileSize);
    const now = clock.now();
    const id = randomToken(24);
    const filePath = `${target.dir}/message-${randomHex(8)}.${LANDING_EXTENSION}`;
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
      invitation_id: target.invitationId,
    });
    return { uploadUrl: await media.uploadUrl({ id, key: filePath, expiresAt, now }), filePath, now };
  }

  return {
    /** What a contributor's upload goes through (group gifts): the same intents, limits and gate as the organizer's. */
    shared: { createIntent, admit, changedSinceAdmitted },

    async generateUploadUrl(sender: Sender, req: GenerateUploadUrlRequest): Promise<GenerateUploadUrlResponse> {
      const gift = await ownChangeableGift(sender, req.giftId);
      const { uploadUrl, filePath, now } = await createIntent(gift, req, { dir: `gifts/${gift.id}`, invitationId: null });
      return { success: true, uploadUrl, publicUrl: media.signedUrl(filePath, SIGNED_URL_TTL_MS, now), filePath };
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
      if (intent.invitation_id !== null) {
        if (!(await groupOpen(db, gift.id))) throw new AppError(409, 'contributions_closed', groupTexts.closed);
      } else if (!changeable(gift)) throw messageLocked();
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
      const intent = await repo.findIntentByPath(db, gift.id, req.filePath);
      if (!intent || intent.invitation_id !== null) throw new AppError(400, 'upload_not_found', texts.sender.confirmUploadFailed);
      const { format, key, size, landed, version, reject } = await admit(intent, planOf(gift), req.messageType);

      // The files being replaced are read in the transaction that replaces them (a render may have swapped them).
      let replaced: Gift = gift;
      const stored = await db.transaction().execute(async (trx) => {
        replaced = (await gifts.lockGifts(trx, [gift.id]))[0] ?? gift;
        // Where the bytes land on their upload key itself (local files), the PUT target commits under this same lock:
        // a file it put there after the checks is seen here, and never becomes the message.
        if (await changedSinceAdmitted(intent, { key, landed, version })) return 'changed';
        const ok = await gifts.setGiftMessage(
          trx,
          gift.id,
          {
            type: intent.message_type,
            path: key,
            mime: format.mime,
            size,
            text: null,
            state: renders ? 'processing' : 'ready',
          },
          clock.now().toISOString(),
        );
        if (!ok) return 'locked';
        await repo.markIntentConfirmed(trx, intent.id);
        // Converted to a rendition every phone plays; the gift is revealable once it is ready.
        if (renders) {
          await enqueue(trx, clock.now(), 'message.render', { giftId: gift.id, key }, renderJob(gift.id, key, gift.sender_id));
        } else await queueMerchantEvent(trx, clock.now(), gift.id, 'gift.message_ready');
        return 'stored';
      });
      if (stored !== 'stored') throw await reject(stored === 'locked' ? messageLocked() : uploadChanged());
      wakeJobs?.();
      await dropReplacedFiles(replaced, key);
    },

    async saveTextMessage(sender: Sender, req: SaveTextMessageRequest): Promise<void> {
      const gift = await ownChangeableGift(sender, req.giftId);
      const stored = await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const ok = await gifts.setGiftMessage(trx, gift.id, { type: 'text', path: null, mime: null, size: null, text: req.text, state: 'ready' }, now.toISOString());
        if (ok) await queueMerchantEvent(trx, now, gift.id, 'gift.message_ready');
        return ok;
      });
      if (!stored) throw messageLocked();
      wakeJobs?.();
      await dropReplacedFiles(gift, null);
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;

