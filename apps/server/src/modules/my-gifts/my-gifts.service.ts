import type { MyGift } from '@giftlens/contract/my-gifts';
import { SCAN_TOP_UPS } from '@giftlens/contract/scan-top-up';
import { QualityReason } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import { type Db, eraseDeletedFromDisk } from '../../db/database.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { backupCodeOf, renewBackupCode } from '../gifts/gift-backup-code.ts';
import { deleteCodesOf, deleteSubjectSessions } from '../auth/auth.repository.ts';
import { deliveriesOf } from '../deliveries/deliveries.repository.ts';
import { toDelivery } from '../deliveries/deliveries.service.ts';
import { deleteGifts } from '../gift-deletion/gift-deletion.ts';
import { firstPhotos, ratedPhotos } from '../gifts/gift-photos.repository.ts';
import { planOf, refuseIfTakenDown, scansAllowed, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import { recordedReactions } from '../reactions/reactions.repository.ts';
import { deleteRecipientByEmail } from '../recipient-auth/recipient-auth.repository.ts';
import { deleteRecipientFailures } from '../scans/scans.repository.ts';
import { deleteSender } from '../sender-auth/sender-auth.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';

/** The sender's page stays open a while: its media links last an hour. */
export const MY_GIFTS_URL_TTL_MS = 60 * 60 * 1000;

export interface MyGiftsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  backupCodes: BackupCodes;
}

type RatedPhoto = Awaited<ReturnType<typeof ratedPhotos>>[number];

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

  /**
   * After the commit: SQLite's WAL still holds the rows as they were; a checkpoint empties it (db/database.ts). A
   * checkpoint that fails or finds the WAL held by another process is not the sender's problem: the deletion stands,
   * and housekeeping checkpoints again within the hour.
   */
  const eraseFromDisk = () => eraseDeletedFromDisk(db).catch(() => undefined);

  return {
    async list(sender: Sender): Promise<MyGift[]> {
      const rows = await gifts.listSenderGifts(db, sender.id);
      const ids = rows.map((g) => g.id);
      const [photos, rated, deliveries, reactions] = await Promise.all([
        firstPhotos(db, ids),
        ratedPhotos(db, ids),
        deliveriesOf(db, ids),
        recordedReactions(db, ids),
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
        const allowed = scansAllowed(gift, plan);
        const valid = until === null || until > now;
        const topUp = SCAN_TOP_UPS[plan.currency];
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
          scansAllowed: allowed,
          scanTopUp: paid && allowed !== null && valid && !withdrawn(gift) ? { scans: topUp.scans, price: topUp.price } : null,
          paidAt: gift.paid_at,
          validUntil: until === null ? null : new Date(until).toISOString(),
          ended:
            gift.status === 'active' &&
            (!valid || (allowed !== null && gift.scans_used >= allowed) || withdrawn(gift)),
          ...(gift.taken_down_at ? { withdrawn: 'taken_down' as const } : gift.refunded_at ? { withdrawn: 'refunded' as const } : {}),
          firstOpenedAt: gift.first_opened_at,
          remindersEnabled: gift.reminders_off_at === null,
          canReplaceMessage: gift.first_opened_at === null && gift.taken_down_at === null,
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
      if (!gift) throw giftNotFound();
      refuseIfTakenDown(gift);
      const code = await renewBackupCode(db, backupCodes, gift);
      if (!code) throw new AppError(409, 'gift_not_paid', texts.backupCode.notPaid);
      return code;
    },

    /** Deletes one of the sender's gifts and everything of it, files included; a paid order's amount stays. */
    async deleteGift(sender: Sender, giftId: string): Promise<void> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      refuseIfTakenDown(gift);
      // Rows in one transaction, files by the job it queues (modules/gift-deletion).
      await db.transaction().execute((trx) => deleteGifts(trx, [gift.id], clock.now()));
      await eraseFromDisk();
    },

    /**
     * Deletes the sender's account: every gift as above, then everything else that holds the sender's id or e-mail
     * address: sessions (as a sender, and as a recipient of the same address), codes and resend slots, the
     * recipient row and its failed-scan counter, and the sender (push subscriptions follow by ON DELETE CASCADE).
     */
    async deleteAccount(sender: Sender): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const own = await gifts.listSenderGifts(trx, sender.id);
        // A taken-down gift is evidence: the account stays while one is (staff lift it, or keep it).
        own.forEach(refuseIfTakenDown);
        await deleteGifts(trx, own.map((g) => g.id), clock.now());
        await deleteSubjectSessions(trx, 'sender', sender.id);
        await deleteSubjectSessions(trx, 'recipient', sender.email);
        await deleteRecipientByEmail(trx, sender.email);
        await deleteCodesOf(trx, sender.email);
        await deleteRecipientFailures(trx, sender.email);
        await deleteSender(trx, sender.id);
      });
      await eraseFromDisk();
    },
  };
}

export type MyGiftsService = ReturnType<typeof createMyGiftsService>;
