import { MAX_REFERENCE_PHOTOS, SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import {
  type AddGiftPhotoResponse,
  type GiftSummary,
  type PhotoQuality,
  SubmitGiftFields,
} from '@giftlens/contract/sender';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Recogniser } from '../../adapters/recogniser.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { backupCodeOf } from './gift-backup-code.ts';
import type { Db, Executor } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import { planOf, refuseIfTakenDown } from './gift-plan.ts';
import { anyLookalike, bestQuality, enrolmentColumns, preparePhotos, type EnrolledPhoto } from './gift-photos.ts';
import * as photosRepo from './gift-photos.repository.ts';
import * as repo from './gifts.repository.ts';
import type { Gift, NewGiftPhoto } from './gifts.table.ts';

export interface GiftsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  recogniser: Recogniser;
  /** Opens (or makes, for a gift paid before codes existed) the paid gift's backup code for its sender. */
  backupCodes: BackupCodes;
}

/** The recipient flow matches a scan against at most this many of the e-mail's active gifts. */
export const MAX_RECIPIENT_GIFTS = 20;

const badRequest = (code: string, message: string) => new AppError(400, code, message);

/**
 * The spec's order of complaints: recipient name, recipient contact, gift image, occasion; then the rest of the
 * schema: plan, the recipient's phone number (checked once the plan is known), e-mail shape.
 */
function validateSubmission(fields: Record<string, string>, imageCount: number): SubmitGiftFields {
  const parsed = SubmitGiftFields.safeParse(fields);
  const issueAt = (key: string) => parsed.error?.issues.find((i) => i.path[0] === key);
  const nameIssue = issueAt('recipientName');
  if (nameIssue) throw badRequest(nameIssue.message === texts.sender.recipientNameInvalid ? 'recipient_name_invalid' : 'recipient_name_required', nameIssue.message);
  if (!fields.recipientEmail?.trim() && !fields.recipientPhone?.trim()) {
    throw badRequest('recipient_contact_required', texts.sender.recipientContactRequired);
  }
  if (imageCount === 0) throw badRequest('gift_image_required', texts.sender.giftImageRequired);
  if (issueAt('occasion')) throw badRequest('occasion_required', texts.sender.occasionRequired);
  // The number's own complaint (the sender specification's rule: its region's length or first digit).
  const phoneIssue = issueAt('recipientPhone');
  if (phoneIssue) throw badRequest('recipient_phone_invalid', phoneIssue.message);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/**
 * A field over the multipart reader's size limit arrives cut: refused, never stored cut. The field's own rule
 * says why where it has one (the name's 80 characters, a phone number's digits), else a plain "too long".
 */
export function giftFieldTooLong(field: string, fields: Record<string, string>): AppError {
  const issue = SubmitGiftFields.safeParse(fields).error?.issues.find((i) => i.path[0] === field);
  return badRequest('field_too_long', issue?.message ?? texts.sender.giftFieldTooLong);
}

export function createGiftsService({ db, media, clock, recogniser, backupCodes }: GiftsDeps) {
  /** Stores the photos' files, then runs `insert`; on any failure the stored files are removed again. */
  async function storePhotos(giftId: string, first: number, photos: EnrolledPhoto[], insert: (rows: NewGiftPhoto[]) => Promise<void>) {
    const now = clock.now().toISOString();
    const written: string[] = [];
    try {
      const rows: NewGiftPhoto[] = [];
      for (const [i, photo] of photos.entries()) {
        const position = first + i;
        const key = `gifts/${giftId}/photo-${position + 1}-${randomHex(4)}.${photo.image.ext}`;
        await media.put(key, photo.image.data);
        written.push(key);
        rows.push({
          id: randomHex(16),
          gift_id: giftId,
          storage_path: key,
          mime: photo.image.mime,
          ...enrolmentColumns(photo),
          position,
          created_at: now,
        });
      }
      await insert(rows);
    } catch (err) {
      // Nothing half-written: files stored before a failed insert are removed again.
      await Promise.allSettled(written.map((key) => media.delete(key)));
      throw err;
    }
  }

  /**
   * Look-alike check against the recipient's other active gifts, as their scan would see them (decision 031), and
   * against the sender's own other active gifts (two products of one brand, decision 056).
   */
  async function lookalike(senderId: string, email: string | null, giftId: string, photos: EnrolledPhoto[]): Promise<boolean> {
    const recipients = email ? await photosRepo.activePhotoFeatures(db, { recipientEmail: email }, giftId, MAX_RECIPIENT_GIFTS) : [];
    const senders = await photosRepo.activePhotoFeatures(db, { senderId }, giftId, MAX_RECIPIENT_GIFTS);
    return anyLookalike(recogniser, photos, [...recipients, ...senders]);
  }

  /** Stores a new gift and its photos in one transaction (files removed again on failure), then checks look-alikes. */
  async function insertGiftWithPhotos(
    sender: Sender,
    input: Pick<SubmitGiftFields, 'recipientName' | 'recipientEmail' | 'recipientPhone' | 'occasion' | 'planId'>,
    images: Buffer[],
    opts: { paid: boolean; alsoInTransaction?: (trx: Executor, giftId: string, r: { quality: PhotoQuality | undefined; lookalike: boolean }) => Promise<void> },
  ) {
    const photos = await preparePhotos(recogniser, images);
    const giftId = randomHex(16);
    const now = clock.now().toISOString();
    const code = opts.paid ? backupCodes.fresh(giftId) : null;
    // The look-alike check reads the other gifts' stored features, so it runs before this gift is stored.
    const lookalikeFound = await lookalike(sender.id, input.recipientEmail || null, giftId, photos);
    const quality = bestQuality(photos);
    await storePhotos(giftId, 0, photos, (rows) =>
      db.transaction().execute(async (trx) => {
        await repo.insertGift(trx, {
          id: giftId,
          sender_id: sender.id,
          recipient_name: input.recipientName,
          recipient_email: input.recipientEmail || null,
          recipient_phone: input.recipientPhone || null,
          occasion: input.occasion,
          plan_id: input.planId,
          status: 'draft',
          message_type: null,
          message_path: null,
          message_mime: null,
          message_text: null,
          message_size: null,
          paid_at: null,
          scans_used: 0,
          first_opened_at: null,
          created_at: now,
          updated_at: now,
        });
        await photosRepo.insertGiftPhotos(trx, rows);
        if (code) await repo.markGiftActive(trx, giftId, now, code.sealed);
        await opts.alsoInTransaction?.(trx, giftId, { quality, lookalike: lookalikeFound });
      }),
    );
    return { giftId, quality, lookalike: lookalikeFound, backupCode: code?.code ?? null };
  }

  return {
    async createGift(
      sender: Sender,
      fields: Record<string, string>,
      images: Buffer[],
    ): Promise<{ giftId: string; quality: PhotoQuality | undefined; lookalike: boolean }> {
      const input = validateSubmission(fields, images.length);
      const { giftId, quality, lookalike } = await insertGiftWithPhotos(sender, input, images, { paid: false });
      return { giftId, quality, lookalike };
    },

    /**
     * A gift someone else pays for (a merchant's, decision 058): the same photo checks, normalisation, enrolment and
     * look-alike check as a sender's, stored paid (with its backup code) in one transaction with `alsoInTransaction`.
     */
    async createPaidGift(
      sender: Sender,
      input: Pick<SubmitGiftFields, 'recipientName' | 'recipientEmail' | 'recipientPhone' | 'occasion' | 'planId'>,
      images: Buffer[],
      alsoInTransaction: (trx: Executor, giftId: string, r: { quality: PhotoQuality | undefined; lookalike: boolean }) => Promise<void>,
    ): Promise<{ giftId: string; quality: PhotoQuality | undefined; lookalike: boolean; backupCode: string }> {
      const made = await insertGiftWithPhotos(sender, input, images, { paid: true, alsoInTransaction });
      if (!made.backupCode) throw new Error('a paid gift without a backup code');
      return { ...made, backupCode: made.backupCode };
    },

    /** More photos of the sender's own gift (3 in all) help recognition from other sides. */
    async addPhotos(sender: Sender, giftId: string, images: Buffer[]): Promise<AddGiftPhotoResponse> {
      const gift = await repo.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      refuseIfTakenDown(gift);
      if (images.length === 0) throw badRequest('gift_image_required', texts.sender.giftImageRequired);
      const tooMany = () => badRequest('too_many_images', texts.sender.tooManyGiftImages);
      const existing = (await photosRepo.listGiftPhotos(db, gift.id)).length;
      if (existing + images.length > MAX_REFERENCE_PHOTOS) throw tooMany();
      const photos = await preparePhotos(recogniser, images);
      try {
        await storePhotos(gift.id, existing, photos, (rows) => photosRepo.insertGiftPhotos(db, rows));
      } catch (err) {
        // A concurrent upload took the position (unique gift_id + position).
        if ((await photosRepo.listGiftPhotos(db, gift.id)).length + images.length > MAX_REFERENCE_PHOTOS) throw tooMany();
        throw err;
      }
      const quality = bestQuality(photos);
      if (!quality) throw new Error('no photo prepared');
      return { success: true, quality, photoCount: existing + photos.length, lookalike: await lookalike(gift.sender_id, gift.recipient_email, gift.id, photos) };
    },

    /** A paid gift's backup code (made anew once when it cannot be opened). */
    backupCode: (gift: Gift) => backupCodeOf(db, backupCodes, gift),

    /** Whether staff took the gift down (its media is then served to nobody). */
    isTakenDown: (giftId: string) => repo.isTakenDown(db, giftId),

    async getOwnGift(sender: Sender, giftId: string): Promise<Gift> {
      const gift = await repo.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      return gift;
    },

    async summary(sender: Sender, giftId: string): Promise<GiftSummary> {
      const gift = await repo.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      const photos = await photosRepo.listGiftPhotos(db, gift.id);
      const summary = toGiftSummary(gift, photos[0] ? media.signedUrl(photos[0].storage_path, SIGNED_URL_TTL_MS, clock.now()) : null);
      return { ...summary, backupCode: await backupCodeOf(db, backupCodes, gift) };
    },
  };
}

export type GiftsService = ReturnType<typeof createGiftsService>;

/** The one mapping from a gift row to what the sender's checkout sees. */
export function toGiftSummary(gift: Gift, giftImageUrl: string | null): GiftSummary {
  const plan = planOf(gift);
  return {
    giftId: gift.id,
    status: gift.status,
    recipientName: gift.recipient_name,
    recipientEmail: gift.recipient_email,
    occasion: gift.occasion,
    messageType: gift.message_type,
    messageState: gift.message_state,
    giftImageUrl,
    plan: {
      id: plan.id,
      name: plan.name,
      price: plan.price,
      currency: plan.currency,
      amountMinor: plan.amountMinor,
      validity: plan.validity,
    },
    paidAt: gift.paid_at,
    firstOpenedAt: gift.first_opened_at,
    backupCode: null,
  };
}
