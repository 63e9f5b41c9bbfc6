import type { PushNotice } from '@giftlens/contract/push';
import { renderEmail } from '../../lib/email-layout.ts';

/**
 * What the sender is told about: the gift's first opening, a reaction that arrived, and the recipient finding the
 * gift out of scans (issue 40: once per gift; the sender can add more).
 */
export type NoticeEvent = 'opened' | 'reaction' | 'scans-out';

interface NoticeFacts {
  giftId: string;
  recipientName: string;
  senderFirstName: string | null;
  /** The sender's page for the gift (absolute for e-mail, a path for push). */
  url: string;
}

export function noticePush(event: NoticeEvent, f: Omit<NoticeFacts, 'senderFirstName'>): PushNotice {
  if (event === 'scans-out') {
    return {
      title: 'Your gift ran out of scans',
      body: `${f.recipientName} tried to open your gift, but it has no scans left. Add more so it opens again.`,
      url: f.url,
      tag: `gift-${f.giftId}-scans-out`,
    };
  }
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
  if (event === 'scans-out') {
    return renderEmail({
      subject: `${f.recipientName} ran out of scans for your gift`,
      preheader: `${f.recipientName} tried to open your gift again, but it has no scans left.`,
      heading: 'Your gift ran out of scans',
      paragraphs: [
        hi,
        `${f.recipientName} tried to open your gift again, but every scan of its plan has been used.`,
        'While the plan is valid you can add 5 more scans in My Gifts; the gift then opens again.',
      ],
      action: { label: 'Add more scans', url: f.url },
      footnote: 'You get this e-mail once per gift.',
    });
  }
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
