import { spacedBackupCode } from '@giftlens/contract/texts';
import { renderEmail } from '../../lib/email-layout.ts';

/** The sender's one reminder: the gift has not been opened 48 hours after its link went out. */
export function senderReminderEmail(f: { recipientName: string; senderFirstName: string | null; code: string | null; link: string; sharePage: string }) {
  return renderEmail({
    subject: `${f.recipientName} has not opened your gift yet`,
    preheader: `Two days after the link went out, ${f.recipientName}'s gift is still waiting.`,
    heading: 'Your gift has not been opened yet',
    paragraphs: [
      f.senderFirstName ? `Hi ${f.senderFirstName},` : 'Hello,',
      `Two days after its link went out, ${f.recipientName} has not opened your gift message yet. Perhaps the link got lost: you can send it again, by e-mail or WhatsApp, from your gift's page.`,
      `The gift's link: ${f.link}`,
      ...(f.code ? [`If the camera cannot recognise the gift, ${f.recipientName} can type its backup code: ${spacedBackupCode(f.code)}.`] : []),
    ],
    ...(f.code ? { highlight: spacedBackupCode(f.code) } : {}),
    action: { label: 'Send the link again', url: f.sharePage },
    footnote: 'You get this reminder once per gift. You can turn reminders off for the gift in My Gifts.',
  });
}

/** The recipient's one reminder: the gift's plan ends in 24 hours and the message has not been watched. */
export function recipientReminderEmail(f: { recipientName: string; senderName: string | null; link: string }) {
  const from = f.senderName ?? 'Someone';
  return renderEmail({
    subject: `Your gift message from ${from} is waiting: one day left`,
    preheader: `Open the link and photograph the gift: the message plays. It can be opened until tomorrow.`,
    heading: 'A message is waiting in your gift',
    paragraphs: [
      `Hi ${f.recipientName},`,
      `${from} put a personal message in a gift for you. It can be opened for one more day.`,
      'Open the link, unwrap the gift and photograph it: the message plays.',
    ],
    action: { label: 'Open your gift', url: f.link },
    footnote: 'This is the only reminder we send about this gift.',
  });
}
