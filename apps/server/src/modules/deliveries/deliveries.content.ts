import { renderEmail } from '../../lib/email-layout.ts';

/** The recipient's e-mail: who it is from, what to do, and the gift link. */
export function deliveryEmail(p: { senderFirstName: string | null; recipientName: string; link: string }) {
  const from = p.senderFirstName?.trim() || 'someone special';
  return renderEmail({
    subject: `You have a gift message from ${from}`,
    preheader: `${from} left you a personal message with your gift.`,
    heading: `Hi ${p.recipientName}!`,
    paragraphs: [
      `${from} has left you a personal message with your gift.`,
      'To see it, open the link below on your phone, then photograph the gift when the page asks. There is no app to install and no code to scan.',
    ],
    action: { label: 'Open your gift message', url: p.link },
    footnote: 'Keep the gift close by: the message opens when the camera recognises it.',
  });
}

/** The WhatsApp template's parameters, in the template's order: the sender's first name, then the link. */
export const whatsappTemplateParams = (p: { senderFirstName: string | null; link: string }) => [
  p.senderFirstName?.trim() || 'Someone',
  p.link,
];
