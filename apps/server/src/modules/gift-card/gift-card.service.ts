import { giftCardTexts } from '@giftlens/contract/extras-texts';
import type { CardLanguage } from '@giftlens/contract/gift-card';
import { attachmentDisposition, safeFileBase } from '../../adapters/media-storage.ts';
import type { Db } from '../../db/database.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { backupCodeOf } from '../gifts/gift-backup-code.ts';
import { refuseIfTakenDown } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import { renderGiftCard } from './gift-card.render.ts';

export interface GiftCardDeps {
  db: Db;
  backupCodes: BackupCodes;
  publicOrigin: string;
}

/** The gift's link as printed on the card and in its QR code (no short form exists: the share link in full). */
export const giftLink = (publicOrigin: string, giftId: string) => `${publicOrigin}/sharelink/${giftId}`;

/** A card's answer headers: a PDF shown inline, named for the recipient, never kept by a cache (it carries the backup code). */
export const cardHeaders = (recipientName: string): Record<string, string> => ({
  'cache-control': 'no-store',
  'content-type': 'application/pdf',
  'content-disposition': attachmentDisposition(`${safeFileBase(giftCardTexts.fileName(recipientName).replace(/\.pdf$/, ''))}.pdf`, 'inline'),
});

/** The printable card for the box (issue 40): only for the sender's own paid gift, or a merchant's own gift. */
export function createGiftCardService({ db, backupCodes, publicOrigin }: GiftCardDeps) {
  async function cardOf(gift: Awaited<ReturnType<typeof gifts.findGift>>, lang: CardLanguage): Promise<{ pdf: Buffer; recipientName: string }> {
    if (!gift) throw giftNotFound();
    refuseIfTakenDown(gift);
    if (gift.status !== 'active') throw new AppError(409, 'gift_not_paid', giftCardTexts.notPaid);
    const backupCode = await backupCodeOf(db, backupCodes, gift);
    const pdf = await renderGiftCard({
      lang,
      recipientName: gift.recipient_name,
      occasion: gift.occasion,
      link: giftLink(publicOrigin, gift.id),
      backupCode,
    });
    return { pdf, recipientName: gift.recipient_name };
  }
  return {
    /** The sender's own gift (another sender's is a 404). */
    async cardFor(sender: Sender, giftId: string, lang: CardLanguage) {
      return cardOf(await gifts.findSenderGift(db, giftId, sender.id), lang);
    },
    /** A gift whose owner the caller has already checked (the merchant API's `cardUrl`: the merchant's own gift). */
    async cardOfGift(giftId: string, lang: CardLanguage) {
      return cardOf(await gifts.findGift(db, giftId), lang);
    },
  };
}

export type GiftCardService = ReturnType<typeof createGiftCardService>;
