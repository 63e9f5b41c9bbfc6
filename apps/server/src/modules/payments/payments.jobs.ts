import { spacedBackupCode, texts } from '@giftlens/contract/texts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/database.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { renderEmail } from '../../lib/email-layout.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';

export interface PaymentJobDeps {
  db: Db;
  mailer: Mailer;
  backupCodes: BackupCodes;
  publicOrigin: string;
}

/** The sender's payment confirmation e-mail: the gift is ready, and its backup code for the card. */
export function paymentConfirmationEmail(f: { recipientName: string; senderFirstName: string | null; code: string; url: string }) {
  const c = texts.backupCode;
  return renderEmail({
    subject: c.emailSubject(f.recipientName),
    preheader: c.emailCode(spacedBackupCode(f.code)),
    heading: c.emailHeading,
    paragraphs: [f.senderFirstName ? `Hi ${f.senderFirstName},` : 'Hello,', c.emailIntro(f.recipientName), c.emailCode(spacedBackupCode(f.code)), c.writeOnCard],
    highlight: spacedBackupCode(f.code),
    action: { label: c.emailAction, url: f.url },
  });
}

/** Sent once per gift, after its first payment (queued in the transaction that marks it paid). */
export function paymentConfirmationJob({ db, mailer, backupCodes, publicOrigin }: PaymentJobDeps): JobHandler<'payment.confirmation'> {
  return {
    async run({ giftId }, ctx) {
      const gift = await findGift(db, giftId);
      const sender = gift ? await findSenderById(db, gift.sender_id) : undefined;
      // The gift (or the account) was deleted meanwhile: nothing to confirm.
      if (!gift || !sender) return;
      // Always the gift's current code: one made anew before this mail went is the one that works.
      const code = backupCodes.open(gift.id, gift.backup_code);
      if (!code) return;
      await mailer.send({
        to: sender.email,
        ...paymentConfirmationEmail({
          recipientName: gift.recipient_name,
          senderFirstName: sender.first_name,
          code,
          url: `${publicOrigin}/share/${gift.id}`,
        }),
        messageId: jobMessageId('payment-confirmation', ctx.id, publicOrigin),
      });
    },
  };
}
