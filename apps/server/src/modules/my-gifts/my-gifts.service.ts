import type { MyGift } from '@giftlens/contract/my-gifts';
import { QualityReason } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import { type Db, eraseDeletedFromDisk, type Executor } from '../../db/database.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { backupCodeOf, renewBackupCode } from '../gifts/gift-backup-code.ts';
import { toDelivery } from '../deliveries/deliveries.service.ts';
import { planOf } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import { validUntil } from '../scans/gift-rules.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import * as repo from './my-gifts.repository.ts';

/** The sender's page stays open a while: its media links last an hour. */
export const MY_GIFTS_URL_TTL_MS = 60 * 60 * 1000;

export interface MyGiftsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  backupCodes: BackupCodes;
}

type RatedPhoto = Awaited<ReturnType<typeof repo.ratedPhotos>>[number];

/** A gift is as recognisable as its best photo (the enrolment's rule): the highest rating, then score. */
function recognisability(photos: RatedPhoto[]): MyGift['recognisability'] {
  const best = photos.sort((a, b) => (b.rating ?? 0) - (a.rating ?? 0) || (b.quality ?? 0) - (a.quality ?? 0))[0];
  if (!best?.rating) return null;
  const reasons = (best.quality_reasons ?? '').split(',').flatMap((r) => {
    const reason = QualityReason.safeParse(r);
    return reason.success ? [reason.data] : [];
  });
  return { rating: best.rating, reasons };
}

export function createMyGiftsService({ db, media, clock, backupCodes }: MyGiftsDeps) {
  const sign = (key: string | null) => (key ? media.signedUrl(key, MY_GIFTS_URL_TTL_MS, clock.now()) : null);
  /**
   * A URL of its own, signed as a download with the name it is saved as ("Message for Ravi.mp4"): the server (or
   * the bucket) answers with Content-Disposition: attachment.
   */
  const signDownload = (key: string, name: string) => media.signedUrl(key, MY_GIFTS_URL_TTL_MS, clock.now(), { download: true, name });

  /** Rows first, in one transaction, with a job that deletes the files after it (retried until they are gone). */
  async function erase(trx: Executor, giftIds: string[]): Promise<void> {
    // Locked first: a render finishing meanwhile waits, then finds no gift and removes its own output.
    await gifts.lockGifts(trx, giftIds);
    const files = await gifts.listGiftFiles(trx, giftIds);
    await repo.deleteGiftRows(trx, giftIds);
    if (files.length > 0) await enqueue(trx, clock.now(), 'media.delete', { keys: files });
  }

  /**
   * After the commit: SQLite's WAL still holds the rows as they were; a checkpoint empties it (db/database.ts). A
   * checkpoint that fails or finds the WAL held by another process is not the sender's problem: the deletion stands,
   * and housekeeping checkpoints again within the hour.
   */
  const eraseFromDisk = () => eraseDeletedFromDisk(db).catch(() => undefined);

  return {
    async list(sender: Sender): Promise<MyGift[]> {
      const rows = await repo.listSenderGifts(db, sender.id);
      const ids = rows.map((g) => g.id);
      const [photos, rated, deliveries, reactions] = await Promise.all([
        repo.firstPhotos(db, ids),
        repo.ratedPhotos(db, ids),
        repo.deliveriesOf(db, ids),
        repo.recordedReactions(db, ids),
      ]);
      const now = clock.now().getTime();
      const codes = await Promise.all(rows.map((gift) => backupCodeOf(db, backupCodes, gift)));
      return rows.map((gift: Gift, index): MyGift => {
        const plan = planOf(gift);
        const until = validUntil(gift, plan);
        const recorded = reactions.find((r) => r.gift_id === gift.id);
        const reaction = recorded?.file_state === 'ready' ? recorded : undefined;
        const messageReady = gift.message_state === 'ready' && gift.message_path !== null;
        const paid = gift.status === 'active';
        return {
          id: gift.id,
          status: gift.status,
          recipientName: gift.recipient_name,
          recipientEmail: gift.recipient_email,
          occasion: gift.occasion,
          planId: plan.id,
          planName: plan.name,
          messageType: gift.message_type,
          messageState: gift.message_state,
          messageError: gift.message_error,
          photoUrl: sign(photos.find((p) => p.gift_id === gift.id)?.storage_path ?? null),
          recognisability: recognisability(rated.filter((p) => p.gift_id === gift.id)),
          messageUrl: messageReady ? sign(gift.message_path) : null,
          posterUrl: sign(gift.message_poster_path),
          scansUsed: gift.scans_used,
          scansAllowed: plan.scans,
          paidAt: gift.paid_at,
          validUntil: until === null ? null : new Date(until).toISOString(),
          ended:
            gift.status === 'active' &&
            ((until !== null && until <= now) || (plan.scans !== null && gift.scans_used >= plan.scans)),
          firstOpenedAt: gift.first_opened_at,
          canReplaceMessage: gift.first_opened_at === null,
          // Downloads are part of what was paid for: none before payment.
          downloads: {
            message:
              plan.downloads && paid && messageReady && gift.message_path
                ? signDownload(gift.message_path, texts.sender.downloadMessageName(gift.recipient_name))
                : null,
            reaction:
              plan.downloads && paid && reaction?.file_path
                ? signDownload(reaction.file_path, texts.sender.downloadReactionName(gift.recipient_name))
                : null,
          },
          reaction:
            reaction?.file_path && reaction.file_mime && reaction.uploaded_at
              ? { url: sign(reaction.file_path)!, mime: reaction.file_mime, posterUrl: sign(reaction.poster_path), recordedAt: reaction.uploaded_at }
              : null,
          reactionState: recorded?.file_path ? recorded.file_state : null,
          deliveries: deliveries.filter((d) => d.gift_id === gift.id).map(toDelivery),
          backupCode: codes[index] ?? null,
          createdAt: gift.created_at,
        };
      });
    },

    /** A new backup code for the sender's own paid gift; the old one stops working at once (decision 039). */
    async renewBackupCode(sender: Sender, giftId: string): Promise<string> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      const code = gift ? await renewBackupCode(db, backupCodes, gift) : null;
      if (!gift) throw giftNotFound();
      if (!code) throw new AppError(409, 'gift_not_paid', texts.backupCode.notPaid);
      return code;
    },

    /** Deletes one of the sender's gifts and everything of it, files included; a paid order's amount stays. */
    async deleteGift(sender: Sender, giftId: string): Promise<void> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      await db.transaction().execute((trx) => erase(trx, [gift.id]));
      await eraseFromDisk();
    },

    /** Deletes the sender's account: every gift as above, subscriptions, sessions, codes, and the sender. */
    async deleteAccount(sender: Sender): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const ids = (await repo.listSenderGifts(trx, sender.id)).map((g) => g.id);
        await erase(trx, ids);
        await repo.deleteSenderRows(trx, sender);
      });
      await eraseFromDisk();
    },
  };
}

export type MyGiftsService = ReturnType<typeof createMyGiftsService>;
