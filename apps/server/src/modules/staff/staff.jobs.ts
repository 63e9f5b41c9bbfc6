import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/database.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { renderEmail } from '../../lib/email-layout.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';

/** What the sender is told when staff refunded their gift or took it down. */
export function staffNoticeEmail(kind: 'refunded' | 'taken_down', f: { senderFirstName: string | null; recipientName: string; myGiftsUrl: string }) {
  const hi = f.senderFirstName ? `Hi ${f.senderFirstName},` : 'Hello,';
  return kind === 'refunded'
    ? renderEmail({
        subject: `Your payment for ${f.recipientName}’s gift was refunded`,
        preheader: 'The full amount goes back to the way you paid.',
        heading: 'Your payment was refunded',
        paragraphs: [
          hi,
          `We refunded your payment for the gift message for ${f.recipientName} in full. It goes back to the card or account you paid with; banks usually show it within 5–7 working days.`,
          `The gift's link and its photo no longer open the message.`,
        ],
        action: { label: 'See your gifts', url: f.myGiftsUrl },
        footnote: 'If you did not ask for this refund, please reply to this e-mail.',
      })
    : renderEmail({
        subject: `Your gift for ${f.recipientName} is no longer available`,
        preheader: 'It was taken down under our terms of use.',
        heading: 'Your gift was taken down',
        paragraphs: [
          hi,
          `We took down the gift message for ${f.recipientName} because it was reported and breaks our terms of use. Its link and its photo no longer open it.`,
        ],
        action: { label: 'See your gifts', url: f.myGiftsUrl },
        footnote: 'If you think this is a mistake, please reply to this e-mail.',
      });
}

export function staffNoticeJob({ db, mailer, publicOrigin }: { db: Db; mailer: Mailer; publicOrigin: string }): JobHandler<'staff.notice'> {
  return {
    async run({ giftId, kind }, ctx) {
      const gift = await findGift(db, giftId);
      const sender = gift ? await findSenderById(db, gift.sender_id) : undefined;
      if (!gift || !sender) return;
      await mailer.send({
        to: sender.email,
        ...staffNoticeEmail(kind, { senderFirstName: sender.first_name, recipientName: gift.recipient_name, myGiftsUrl: `${publicOrigin}/my-gifts` }),
        messageId: jobMessageId(`staff-${kind}`, ctx.id, publicOrigin),
      });
    },
  };
}

/** What a staff member is told when a colleague reset their second factor (README "Staff console"). */
export function staffMemberNoticeEmail(f: { by: string; staffUrl: string }) {
  return renderEmail({
    subject: 'Your GiftLens staff authenticator was reset',
    preheader: `${f.by} reset your second factor.`,
    heading: 'Your authenticator was reset',
    paragraphs: [
      'Hello,',
      `${f.by} reset the second factor of your GiftLens staff account, and your staff sessions were ended. The next time you sign in you will set up an authenticator app again, after the code we e-mail you.`,
    ],
    action: { label: 'Open the staff console', url: f.staffUrl },
    footnote: 'If you did not ask for this, tell your team lead at once: your old authenticator no longer works.',
  });
}

export function staffMemberNoticeJob({ mailer, publicOrigin }: { mailer: Mailer; publicOrigin: string }): JobHandler<'staff.member_notice'> {
  return {
    async run({ email, by }, ctx) {
      await mailer.send({
        to: email,
        ...staffMemberNoticeEmail({ by, staffUrl: `${publicOrigin}/staff` }),
        messageId: jobMessageId('staff-member', ctx.id, publicOrigin),
      });
    },
  };
}
