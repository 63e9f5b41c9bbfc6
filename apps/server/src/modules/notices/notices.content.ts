import type { PushNotice } from '@giftlens/contract/push';
import { renderEmail } from '../../lib/email-layout.ts';

/** What the sender is told about: the gift's first opening, and a reaction that arrived. */
export type NoticeEvent = 'opened' | 'reaction';

interface NoticeFacts {
  giftId: string;
  recipientName: string;
  senderFirstName: string | null;
  /** The sender's page for the gift (absolute for e-mail, a path for push). */
  url: string;
}

export function noticePush(event: NoticeEvent, f: Omit<NoticeFacts, 'senderFirstName'>): PushNotice {
  return event === 'opened'
    ? {
        title: 'Your gift was opened',
        body: `${f.recipientName} just opened your gift message.`,
        url: f.url,
        tag: `gift-${f.giftId}-opened`,
      }
    : {
        title: 'A reaction arrived',
        body: `${f.recipientName} recorded a reaction to your gift message.`,
        url: f.url,
        tag: `gift-${f.giftId}-reaction`,
      };
}

export function noticeEmail(event: NoticeEvent, f: NoticeFacts) {
  const hi = f.senderFirstName ? `Hi ${f.senderFirstName},` : 'Hello,';
  return event === 'opened'
    ? renderEmail({
        subject: `${f.recipientName} just opened your gift message`,
        preheader: `${f.recipientName} photographed the gift and your message played.`,
        heading: 'Your gift was opened',
        paragraphs: [hi, `${f.recipientName} photographed the gift and your message just played.`],
        action: { label: 'See your gift', url: f.url },
        footnote: 'You get this e-mail once per gift, the first time it is opened.',
      })
    : renderEmail({
        subject: `${f.recipientName} recorded a reaction to your gift`,
        preheader: `${f.recipientName} recorded their reaction while watching your message.`,
        heading: 'A reaction arrived',
        paragraphs: [hi, `${f.recipientName} recorded their reaction while watching your message, and chose to share it with you.`],
        action: { label: 'See your gift', url: f.url },
      });
}
